/**
 * The fitting of a first view held to its reservation (first-view.ts), a chunk of its own: a held
 * view (`.first`) is fitted anew; a view shown in full (no button) has nothing taken out; a view that
 * grew keeps out what was out until the visitor asks for it. Its button (`.more`) shows while
 * anything is out.
 */
export const fit = (views: HTMLElement[]) => {
  // The views' fittings in turns, their measures in one turn and their changes in the next: the page
  // is laid out once a turn for all of them, not once for each measure of each (a page of many widgets).
  for (let runs = views.map(fitting); runs.length;) runs = runs.filter((run) => !run.next().done);
};

/** One view's fitting: it yields before it measures, and before it changes the view after measuring. */
function* fitting(view: HTMLElement) {
  const fill = view.querySelector<HTMLElement>('.fill')!;
  const more = view.querySelector<HTMLElement>('.more');
  const held = view.classList.contains('first');
  // A view that grew and was drawn anew (the calendar's next month, in the elements of the month
  // before) keeps out what follows its first item out, whole: what was marked in the elements drawn
  // anew may be a list without its heading, or items kept after one out.
  const out = !held && more && fill.querySelector<HTMLElement>('[data-cut]');
  if (held || !more || out) {
    for (const el of fill.querySelectorAll('[data-cut]')) el.removeAttribute('data-cut');
    for (let el = fill; el !== view; el = el.parentElement!) el.style.minHeight = '';
  }
  if (out) {
    const el = whole(out, fill);
    if (!el.contains(itemsOf(fill)[0]!)) cutFrom(el, fill);
  }
  if (!more) return;
  more.hidden = true;
  if (held) {
    yield;
    if (over(fill)) {
      yield;
      more.hidden = false;
      yield* cut(fill, view);
    }
  }
  more.hidden = !fill.querySelector('[data-cut]');
}

const over = (fill: HTMLElement) => fill.scrollHeight > fill.clientHeight;

/**
 * Whole items only: the items (a list's items that hold no list, and the blocks of `fill` that hold
 * none) from the first that does not fit to the end are taken out, with what follows them. The
 * first item of a list goes with its list and the card it is in (no empty card), an item or list
 * after a heading (`h3`) with the heading (no day without its class). The first item stays: if even
 * it does not fit (a phone narrower than the widget is made for), the view grows by what it lacks,
 * never shows half of it; unless the view is a summary (`data-summary`: the profile's signed-in
 * view, whose button names what it holds), which then shows none of it.
 */
function* cut(fill: HTMLElement, view: HTMLElement) {
  const items = itemsOf(fill);
  yield;
  const end = fill.getBoundingClientRect().bottom + 0.5;
  let i = items.findIndex((el) => el.getBoundingClientRect().bottom > end);
  for (
    i = i < 0 ? items.length - 1 : i;
    i >= 0 && over(fill);
    i = items.findLastIndex((el, j) => j < i && !el.closest('[data-cut]'))
  ) {
    const el = whole(items[i]!, fill);
    if (el.contains(items[0]!) && !fill.hasAttribute('data-summary')) {
      // Even the first item does not fit: what follows it goes, and the view grows by what it lacks:
      // the fill, and each box between it and the view by as much (the map's list is in a row of a
      // grid whose own height is flexed: the list alone would overflow its row, under "Show all").
      // The first item is the first that is no heading: a day's heading stays with its first class
      // (the calendar at 375 px showed a bare day, its classes under "Show more").
      yield;
      cutAfter(items.find((item) => !item.matches('h3')) ?? items[0]!, fill);
      yield;
      const lack = fill.scrollHeight - fill.clientHeight;
      const boxes: [HTMLElement, number][] = [];
      for (let el = fill.parentElement!; el !== view; el = el.parentElement!) boxes.push([el, el.offsetHeight + lack]);
      fill.style.minHeight = `${fill.scrollHeight}px`;
      for (const [el, height] of boxes) el.style.minHeight = `${height}px`;
      break;
    }
    yield;
    cutFrom(el, fill);
    yield;
  }
}

/** The items of a fill: a list's items that hold no list, and the blocks of `fill` that hold none. */
const itemsOf = (fill: HTMLElement) =>
  [...fill.querySelectorAll<HTMLElement>(':scope > *, ul > li')].filter((el) => !el.querySelector('li') && !el.matches('.more'));

/** What goes with an item taken out: its heading, and the list (and card) it is the first of. */
const whole = (el: HTMLElement, fill: HTMLElement) => {
  for (let prev; ;) {
    prev = el.previousElementSibling;
    if (prev?.matches('h3')) el = prev as HTMLElement;
    else if (!prev && el.parentElement !== fill) el = el.parentElement!.closest('li') ?? el.parentElement!;
    else return el;
  }
};

/** Takes out `el` and what follows it. */
const cutFrom = (el: Element, fill: HTMLElement) => {
  cutAfter(el, fill);
  el.setAttribute('data-cut', '');
};

/** Takes out what follows `el` in `fill`, at every level up to it (but the button). */
const cutAfter = (el: Element, fill: HTMLElement) => {
  for (let at = el; at !== fill; at = at.parentElement!)
    for (let next = at.nextElementSibling; next; next = next.nextElementSibling)
      if (!next.matches('.more')) next.setAttribute('data-cut', '');
};
