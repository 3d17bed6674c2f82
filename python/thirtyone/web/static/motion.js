// Short animations at a readable pace: the deal, a draw, a take and a put-down as cards flying
// between the stock, the pile and the seats; banners for a knock and a 31. None when the system
// asks for reduced motion (the pace between the other players' turns stays).

const reduced = window.matchMedia("(prefers-reduced-motion: reduce)");

export function still() {
  return reduced.matches;
}

export function wait(ms) {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}

/** A card flying from one element to another in ``ms`` milliseconds. */
export async function fly(from, to, card, ms) {
  if (!from || !to || ms <= 0 || still() || document.hidden) return;
  const a = from.getBoundingClientRect();
  const b = to.getBoundingClientRect();
  if (!a.width || !b.width) return;
  const width = 64;
  const height = 90;
  card.classList.add("flying");
  card.setAttribute("aria-hidden", "true");
  card.style.width = `${width}px`;
  card.style.height = `${height}px`;
  card.style.left = `${a.left + a.width / 2 - width / 2}px`;
  card.style.top = `${a.top + a.height / 2 - height / 2}px`;
  document.body.append(card);
  const dx = b.left + b.width / 2 - (a.left + a.width / 2);
  const dy = b.top + b.height / 2 - (a.top + a.height / 2);
  const animation = card.animate(
    [{ transform: "translate(0, 0) scale(1)" }, { transform: `translate(${dx}px, ${dy}px) scale(0.9)` }],
    { duration: ms, easing: "ease-in-out" },
  );
  try {
    await animation.finished;
  } catch {
    // (cancelled: the card is removed all the same)
  }
  card.remove();
}

/** A banner over the table for ``ms`` milliseconds ("Ben knocks!"). */
export async function banner(text, ms) {
  const box = document.getElementById("banner");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(box.timer);
  if (ms <= 0) {
    box.timer = setTimeout(() => { box.hidden = true; }, 1200);
    return;
  }
  await wait(Math.max(ms, 700));
  box.hidden = true;
}

/** The banner put away at once: the round it spoke of is over (ruling 309). */
export function bannerAway() {
  const box = document.getElementById("banner");
  clearTimeout(box.timer);
  box.hidden = true;
}

/** A seat lit up for a moment (its move). */
export function flash(element) {
  if (!element || still()) return;
  element.classList.remove("flash");
  void element.offsetWidth; // (restarts the animation)
  element.classList.add("flash");
}
