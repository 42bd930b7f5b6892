/**
 * The service's verdicts on a cart, in words: a voucher applied or why not, a class that cannot be
 * ordered and why. A chunk of its own, loaded with the first answer that has one (most carts have
 * none, and these are a good part of the cart's words).
 */
import { translator } from '../shared/i18n.ts';

/** The verdicts' words; German is in checkout-verdicts.de.ts. */
export const en = {
  fixCart: 'Change or remove the marked classes to continue.',
  'voucher.applied': 'Voucher {code} applied: see the discount below.',
  'voucher.unknown': 'There is no voucher {code}: check the code. You can order without it.',
  'voucher.invalid': 'A voucher code has letters, digits and hyphens only: check the code.',
  'voucher.expired': 'The voucher {code} has expired. You can order without it.',
  'voucher.used-up': 'The voucher {code} has been used up. You can order without it.',
  'voucher.not-applicable': 'The voucher {code} does not apply to the classes in your cart. You can order without it.',
  'voucher.not-checked':
    'Too many wrong codes were tried from your connection: {code} was not checked. Try again in {minutes} min, or go on without it.',
  'problem.unknown-class': 'This class is no longer offered: remove it from the cart.',
  'problem.started': 'This class has already started: remove it from the cart.',
  'problem.class-full': 'This class is full: remove it from the cart.',
  'problem.not-enough-seats': 'Seats left in this class: {count}. Book at most that many, or remove it.',
  'problem.held': 'Seats left: {count}. Others are held for unpaid orders: try again in {minutes} min, or remove it.',
};

export const t = translator(en, { de: () => import('./checkout-verdicts.de.ts') });
