/**
 * Every email the service writes to a visitor, in their language (the widget's: `Accept-Language`
 * of its request, kept with the participant and the order for what comes later), from the company
 * (its name is the sender's name). The mail queue (core/outbox.ts) adds the HTML version and sends it.
 * Emails to a company (a contact message) and to its users (the REST API's sign-in) are in English.
 */
import type { Email } from '../core/outbox.ts';
import { formatClassStart, formatMoney, type MailLocale } from './format.ts';

export type { MailLocale };

interface ClassFacts {
  starts_at: number;
  timezone: string;
  location: string;
}

const when = (cls: ClassFacts, locale: MailLocale) => formatClassStart(cls.starts_at, cls.timezone, locale);
const mail = (locale: MailLocale, fromName: string, email: Omit<Email, 'locale' | 'fromName'>): Email => ({
  ...email,
  locale,
  fromName,
});

/** A class as a participant's email names it: when, where, (what it costs,) the place's reference. */
const classLines = (locale: MailLocale, cls: ClassFacts, reference: string, price?: string) =>
  locale === 'de'
    ? [`Wann: ${when(cls, 'de')}`, `Wo:   ${cls.location}`, ...(price ? [`Preis: ${price}`] : []), `Referenz: ${reference}`]
    : [`When:  ${when(cls, 'en')}`, `Where: ${cls.location}`, ...(price ? [`Price: ${price}`] : []), `Reference: ${reference}`];

/** An email about a participant's place: the greeting, what happened, the class, the company's name. */
const placeEmail = (
  locale: MailLocale,
  r: { email: string; first_name: string; company: string },
  subject: string,
  said: string[],
  cls: string[],
): Email =>
  mail(locale, r.company, {
    to: r.email,
    subject,
    text: [`${locale === 'de' ? 'Hallo' : 'Hello'} ${r.first_name},`, '', ...said, '', ...cls, '', r.company].join('\n'),
  });

/** A registration made (or made again for an email that holds the place already). */
export function registrationEmail(
  locale: MailLocale,
  r: {
    id: string;
    first_name: string;
    email: string;
    status: 'confirmed' | 'waitlisted';
    course: string;
    company: string;
    cls: ClassFacts & { price_amount: number; currency: string };
    again?: boolean;
  },
): Email {
  const confirmed = r.status === 'confirmed';
  const free = r.cls.price_amount === 0;
  if (locale === 'de') {
    return placeEmail(
      'de',
      r,
      `${r.again ? 'Sie sind bereits angemeldet' : confirmed ? 'Anmeldung bestätigt' : 'Auf der Warteliste'}: ${r.course}`,
      [
        ...(r.again
          ? [
              'jemand hat diese Adresse erneut für einen Termin angemeldet, für den sie schon einen Platz hat. Es hat sich nichts geändert:',
              '',
            ]
          : []),
        confirmed
          ? `Sie haben einen Platz in „${r.course}“.${free ? '' : ` ${r.company} teilt Ihnen mit, wie Sie ihn bezahlen.`}`
          : `Sie stehen auf der Warteliste für „${r.course}“. Wir schreiben Ihnen, sobald ein Platz frei wird.`,
      ],
      classLines('de', r.cls, r.id, free ? 'kostenlos' : formatMoney(r.cls.price_amount, r.cls.currency, 'de')),
    );
  }
  return placeEmail(
    'en',
    r,
    `${r.again ? 'You are already registered' : confirmed ? 'Registration confirmed' : 'On the waitlist'}: ${r.course}`,
    [
      ...(r.again
        ? ['someone registered this address again for a class where it already holds a place. Nothing has changed:', '']
        : []),
      confirmed
        ? `you have a place in "${r.course}".${free ? '' : ` ${r.company} will tell you how to pay for it.`}`
        : `you are on the waitlist for "${r.course}". We will email you as soon as a place frees up.`,
    ],
    classLines('en', r.cls, r.id, free ? 'free' : formatMoney(r.cls.price_amount, r.cls.currency)),
  );
}

/** A place freed up on the waitlist: it is the person's. */
export function promotedEmail(
  locale: MailLocale,
  r: { id: string; first_name: string; email: string; title: string; company: string; cls: ClassFacts },
): Email {
  return locale === 'de'
    ? placeEmail(
        'de',
        r,
        `Anmeldung bestätigt: ${r.title}`,
        [`in „${r.title}“ ist ein Platz frei geworden, und er gehört Ihnen: Sie stehen nicht mehr auf der Warteliste.`],
        classLines('de', r.cls, r.id),
      )
    : placeEmail(
        'en',
        r,
        `Registration confirmed: ${r.title}`,
        [`a place in "${r.title}" has freed up, and it is yours: you are no longer on the waitlist.`],
        classLines('en', r.cls, r.id),
      );
}

/** A participant cancelled a place. */
export function cancelledEmail(
  locale: MailLocale,
  r: { id: string; first_name: string; email: string; title: string; company: string; waitlisted: boolean; cls: ClassFacts },
): Email {
  return locale === 'de'
    ? placeEmail(
        'de',
        r,
        `Anmeldung storniert: ${r.title}`,
        [`Ihr ${r.waitlisted ? 'Platz auf der Warteliste' : 'Platz'} in „${r.title}“ ist storniert.`],
        classLines('de', r.cls, r.id),
      )
    : placeEmail(
        'en',
        r,
        `Registration cancelled: ${r.title}`,
        [`your ${r.waitlisted ? 'place on the waitlist' : 'place'} in "${r.title}" is cancelled.`],
        classLines('en', r.cls, r.id),
      );
}

/** The passwordless sign-in: a link (its `key` a token; none for an application without a page) and a PIN. */
export function signInEmail(
  locale: MailLocale,
  r: { email: string; first_name: string; name: string; place: string; link: string | null; pin: string; fromName?: string },
): Email {
  if (locale === 'de') {
    return mail('de', r.fromName ?? r.name, {
      to: r.email,
      subject: `Anmelden bei ${r.name}`,
      text: [
        `Hallo ${r.first_name},`,
        '',
        ...(r.link
          ? [`melden Sie sich mit diesem Link bei ${r.place} an:`, r.link, '', `oder geben Sie diese PIN ein: ${r.pin}`]
          : [`geben Sie diese PIN ein, um sich bei ${r.place} anzumelden: ${r.pin}`]),
        'Sie gilt 5 Minuten lang und nur einmal.',
        '',
        'Wenn Sie sich nicht anmelden wollten, ignorieren Sie diese E-Mail.',
      ].join('\n'),
      link: r.link,
      pin: r.pin,
    });
  }
  return mail('en', r.fromName ?? r.name, {
    to: r.email,
    subject: `Sign in to ${r.name}`,
    text: [
      `Hello ${r.first_name},`,
      '',
      ...(r.link
        ? [`sign in to ${r.place} with this link:`, r.link, '', `or enter this PIN: ${r.pin}`]
        : [`enter this PIN to sign in to ${r.place}: ${r.pin}`]),
      'It is valid for 5 minutes and works once.',
      '',
      'If you did not ask to sign in, ignore this email.',
    ].join('\n'),
    link: r.link,
    pin: r.pin,
  });
}

/** A new address asked for: the PIN (and link) that confirm it, to the new address. */
export function confirmAddressEmail(
  locale: MailLocale,
  r: { to: string; first_name: string; company: string; link: string | null; pin: string },
): Email {
  if (locale === 'de') {
    return mail('de', r.company, {
      to: r.to,
      subject: `Bestätigen Sie Ihre neue E-Mail-Adresse bei ${r.company}`,
      text: [
        `Hallo ${r.first_name},`,
        '',
        `um ${r.to} zur Adresse Ihres Kontos bei ${r.company} zu machen, geben Sie dort, wo Sie sie geändert haben, diese PIN ein: ${r.pin}`,
        ...(r.link ? ['oder öffnen Sie diesen Link:', r.link] : []),
        '',
        'Beides gilt eine Stunde, die PIN für 5 Versuche.',
        'Bis dahin behält Ihr Konto seine bisherige Adresse.',
        '',
        'Wenn Sie das nicht veranlasst haben, ignorieren Sie diese E-Mail: Es ändert sich nichts.',
      ].join('\n'),
      link: r.link,
      pin: r.pin,
    });
  }
  return mail('en', r.company, {
    to: r.to,
    subject: `Confirm your new email address at ${r.company}`,
    text: [
      `Hello ${r.first_name},`,
      '',
      `to make ${r.to} the address of your account at ${r.company}, enter this PIN where you changed it: ${r.pin}`,
      ...(r.link ? ['or open this link:', r.link] : []),
      '',
      'Both work for an hour; the PIN for 5 tries.',
      `Until then your account keeps its current address.`,
      '',
      'If you did not ask for this, ignore this email: nothing changes.',
    ].join('\n'),
    link: r.link,
    pin: r.pin,
  });
}

/** A new address asked for that is another participant's: only that mailbox is told, and nothing changes. */
export function addressTakenEmail(locale: MailLocale, r: { to: string; company: string }): Email {
  if (locale === 'de') {
    return mail('de', r.company, {
      to: r.to,
      subject: `Jemand möchte diese Adresse bei ${r.company} verwenden`,
      text: [
        'Hallo,',
        '',
        `jemand, der bei ${r.company} angemeldet ist, möchte ${r.to} zur Adresse seines Kontos machen.`,
        'Diese Adresse gehört dort schon zu einem Konto, daher hat sich nichts geändert.',
        '',
        'Wenn Sie das nicht erwartet haben, können Sie diese E-Mail ignorieren.',
      ].join('\n'),
    });
  }
  return mail('en', r.company, {
    to: r.to,
    subject: `Someone asked to use this address at ${r.company}`,
    text: [
      'Hello,',
      '',
      `someone signed in at ${r.company} asked to make ${r.to} the address of their account.`,
      'This address already belongs to an account there, so nothing has changed.',
      '',
      'If you did not expect this, you can ignore this email.',
    ].join('\n'),
  });
}

/** To the old address: a change of address was asked for. */
export function changeAskedEmail(
  locale: MailLocale,
  r: { to: string; first_name: string; company: string; newAddress: string },
): Email {
  if (locale === 'de') {
    return mail('de', r.company, {
      to: r.to,
      subject: `Eine Änderung Ihrer E-Mail-Adresse bei ${r.company} wurde angefragt`,
      text: [
        `Hallo ${r.first_name},`,
        '',
        `jemand, der in Ihrem Konto bei ${r.company} angemeldet ist, möchte dessen E-Mail-Adresse in ${r.newAddress} ändern.`,
        'Es ändert sich nichts, bis das aus dem neuen Postfach bestätigt wird.',
        '',
        `Wenn Sie das nicht waren, melden Sie sich an, prüfen Sie Ihre Angaben und melden Sie sich ab; oder wenden Sie sich an ${r.company}.`,
      ].join('\n'),
    });
  }
  return mail('en', r.company, {
    to: r.to,
    subject: `A change of your email address at ${r.company} was asked for`,
    text: [
      `Hello ${r.first_name},`,
      '',
      `someone signed in to your account at ${r.company} asked to change its email address to ${r.newAddress}.`,
      'Nothing changes until that is confirmed from the new mailbox.',
      '',
      `If this was not you, sign in, check your details and sign out; or contact ${r.company}.`,
    ].join('\n'),
  });
}

/** To the old address: the change is done. */
export function addressChangedEmail(
  locale: MailLocale,
  r: { to: string; first_name: string; company: string; newAddress: string },
): Email {
  if (locale === 'de') {
    return mail('de', r.company, {
      to: r.to,
      subject: `Ihre E-Mail-Adresse bei ${r.company} wurde geändert`,
      text: [
        `Hallo ${r.first_name},`,
        '',
        `die E-Mail-Adresse Ihres Kontos bei ${r.company} ist jetzt ${r.newAddress}, bestätigt aus jenem Postfach.`,
        'Mit dieser Adresse melden Sie sich dort nicht mehr an.',
        '',
        `Wenn Sie das nicht waren, wenden Sie sich sofort an ${r.company}.`,
      ].join('\n'),
    });
  }
  return mail('en', r.company, {
    to: r.to,
    subject: `Your email address at ${r.company} has changed`,
    text: [
      `Hello ${r.first_name},`,
      '',
      `the email address of your account at ${r.company} is now ${r.newAddress}, confirmed from that mailbox.`,
      'This address no longer signs in to it.',
      '',
      `If you did not make this change, contact ${r.company} at once.`,
    ].join('\n'),
  });
}

interface OrderFacts {
  number: string;
  buyer: { first_name: string; email: string };
  items: {
    course_title: string;
    starts_at: string;
    timezone: string;
    location: string;
    seats: number;
    attendees: { first_name: string; last_name: string }[];
    unit_price: { amount: number; currency: string };
    discount: { amount: number; currency: string };
    total: { amount: number; currency: string };
  }[];
  voucher: string | null;
  discount: { amount: number; currency: string };
  total: { amount: number; currency: string };
  tax: { amount: number; currency: string };
  tax_rate: number;
  prices_include_tax: boolean;
  payment: { method: string | null; status: string };
  calendar_url: string;
}

/** The buyer's confirmation: the number, each line with its venue's local time, the totals, how to pay. */
export function orderEmail(locale: MailLocale, order: OrderFacts, companyName: string): Email {
  const m = (money: { amount: number; currency: string }) => formatMoney(money.amount, money.currency, locale);
  const names = (item: OrderFacts['items'][number]) => item.attendees.map((a) => `${a.first_name} ${a.last_name}`).join(', ');
  const at = (item: OrderFacts['items'][number]) =>
    when({ starts_at: Date.parse(item.starts_at), timezone: item.timezone, location: item.location }, locale);
  const { method, status } = order.payment;
  if (locale === 'de') {
    const tax = `${order.tax_rate.toLocaleString('de-DE')} % MwSt.`;
    return mail('de', companyName, {
      to: order.buyer.email,
      links: [order.calendar_url],
      subject: `Bestellung ${order.number} bestätigt: ${companyName}`,
      text: [
        `Hallo ${order.buyer.first_name},`,
        '',
        `vielen Dank für Ihre Bestellung ${order.number} bei ${companyName}. Ihre Plätze sind gebucht:`,
        '',
        ...order.items.flatMap((item) => [
          item.course_title,
          `  Wann:   ${at(item)}`,
          `  Wo:     ${item.location}`,
          `  Plätze: ${item.seats} (${names(item)})`,
          `  Preis:  ${item.seats} × ${m(item.unit_price)}${item.discount.amount > 0 ? ` − ${m(item.discount)} Gutschein` : ''} = ${m(item.total)}`,
          '',
        ]),
        ...(order.discount.amount > 0 ? [`Rabatt (${order.voucher}): −${m(order.discount)}`] : []),
        order.prices_include_tax
          ? `Gesamt: ${m(order.total)}, darin ${tax} von ${m(order.tax)}`
          : `Gesamt: ${m(order.total)}, davon ${tax}: ${m(order.tax)}`,
        '',
        status === 'none'
          ? 'Es ist nichts zu bezahlen.'
          : status === 'paid'
            ? 'Mit Karte bezahlt. Vielen Dank.'
            : method === 'invoice'
              ? `Zahlung: per Rechnung. Die Rechnung kommt an diese Adresse; bitte zahlen Sie sie innerhalb von 14 Tagen unter Angabe von ${order.number}.`
              : `Zahlung: vor Ort. Bitte zahlen Sie am Veranstaltungsort vor Beginn des Termins unter Angabe von ${order.number}.`,
        '',
        'Die Termine in Ihren Kalender eintragen:',
        order.calendar_url,
        '',
        companyName,
      ].join('\n'),
    });
  }
  const tax = `${order.tax_rate} % VAT`;
  return mail('en', companyName, {
    to: order.buyer.email,
    links: [order.calendar_url],
    subject: `Order ${order.number} confirmed: ${companyName}`,
    text: [
      `Hello ${order.buyer.first_name},`,
      '',
      `thank you for your order ${order.number} at ${companyName}. Your seats are booked:`,
      '',
      ...order.items.flatMap((item) => [
        item.course_title,
        `  When:  ${at(item)}`,
        `  Where: ${item.location}`,
        `  Seats: ${item.seats} (${names(item)})`,
        `  Price: ${item.seats} × ${m(item.unit_price)}${item.discount.amount > 0 ? ` − ${m(item.discount)} voucher` : ''} = ${m(item.total)}`,
        '',
      ]),
      ...(order.discount.amount > 0 ? [`Discount (${order.voucher}): −${m(order.discount)}`] : []),
      order.prices_include_tax
        ? `Total: ${m(order.total)}, including ${tax} of ${m(order.tax)}`
        : `Total: ${m(order.total)}, of which ${tax}: ${m(order.tax)}`,
      '',
      status === 'none'
        ? 'Nothing to pay.'
        : status === 'paid'
          ? 'Paid by card. Thank you.'
          : method === 'invoice'
            ? `Payment: by invoice. The invoice comes to this address; pay it within 14 days, quoting ${order.number}.`
            : `Payment: on site. Pay at the venue before the class starts, quoting ${order.number}.`,
      '',
      'Add the classes to your calendar:',
      order.calendar_url,
      '',
      companyName,
    ].join('\n'),
  });
}
