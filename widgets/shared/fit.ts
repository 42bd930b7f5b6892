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
  if (held || !more) {
    for (const el of fill.querySelectorAll('[data-cut]')) el.removeAttribute('data-cut');
    for (let el = fill; el !== view; el = el.parentElement!) el.style.minHeight = '';
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
  const items = [...fill.querySelectorAll<HTMLElement>(':scope > *, ul > li')].filter(
    (el) => !el.querySelector('li') && !el.matches('.more'),
  );
  yield;
  const end = fill.getBoundingClientRect().bottom + 0.5;
  let i = items.findIndex((el) => el.getBoundingClientRect().bottom > end);
  for (
    i = i < 0 ? items.length - 1 : i;
    i >= 0 && over(fill);
    i = items.findLastIndex((el, j) => j < i && !el.closest('[data-cut]'))
  ) {
    let el = items[i]!;
    for (let prev; ;) {
      prev = el.previousElementSibling;
      if (prev?.matches('h3')) el = prev as HTMLElement;
      else if (!prev && el.parentElement !== fill) el = el.parentElement!.closest('li') ?? el.parentElement!;
      else break;
    }
    if (el.contains(items[0]!) && !fill.hasAttribute('data-summary')) {
      // Even the first item does not fit: what follows it goes, and the view grows by what it lacks:
      // the fill, and each box between it and the view by as much (the map's list is in a row of a
      // grid whose own height is flexed: the list alone would overflow its row, under "Show all").
      yield;
      cutAfter(items[0]!, fill);
      yield;
      const lack = fill.scrollHeight - fill.clientHeight;
      const boxes: [HTMLElement, number][] = [];
      for (let el = fill.parentElement!; el !== view; el = el.parentElement!) boxes.push([el, el.offsetHeight + lack]);
      fill.style.minHeight = `${fill.scrollHeight}px`;
      for (const [el, height] of boxes) el.style.minHeight = `${height}px`;
      break;
    }
    yield;
    cutAfter(el, fill);
    el.setAttribute('data-cut', '');
    yield;
  }
}

/** Takes out what follows `el` in `fill`, at every level up to it (but the button). */
const cutAfter = (el: Element, fill: HTMLElement) => {
  for (let at = el; at !== fill; at = at.parentElement!)
    for (let next = at.nextElementSibling; next; next = next.nextElementSibling)
      if (!next.matches('.more')) next.setAttribute('data-cut', '');
};
