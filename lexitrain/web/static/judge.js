"use strict";
// The Judge page: a play typed, judged as a whole by the app (and logged there), the verdict in large letters,
// cleared after the page's seconds or at the next key.

(() => {
  const page = document.getElementById("judge");
  const form = document.getElementById("judge-form");
  const input = document.getElementById("judge-words");
  const result = document.getElementById("judge-result");
  const verdict = document.getElementById("judge-verdict");
  const play = document.getElementById("judge-play");
  const failure = document.getElementById("judge-error");
  const seconds = Number(page.dataset.clear); // (the app's one figure: search/judging.py CLEAR_SECONDS)
  let timer = null;

  function clear() {
    window.clearTimeout(timer);
    result.hidden = true;
    failure.hidden = true;
    form.hidden = false;
    page.classList.remove("valid", "invalid");
    input.value = "";
    input.focus();
  }

  // (a second Enter while the first play is on its way is dropped: one play, one judgement in the log)
  const judge = lexitrain.guarded(async () => {
    if (!input.value.trim()) return;
    try {
      const judged = await lexitrain.api("POST", "/api/judge", { words: input.value });
      verdict.textContent = judged.valid ? "VALID" : "NOT VALID";
      play.textContent = judged.words.join(" ") + " · " + judged.lexicon + " · " + judged.at.slice(11, 19);
      page.classList.add(judged.valid ? "valid" : "invalid");
      form.hidden = true;
      result.hidden = false;
      failure.hidden = true;
      timer = window.setTimeout(clear, seconds * 1000);
    } catch (error) {
      failure.textContent = error.message;
      failure.hidden = false;
    }
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    judge();
  });

  // any key clears a verdict (the next challenger starts typing)
  document.addEventListener("keydown", (event) => {
    if (!result.hidden && !event.target.closest(".judge-host")) {
      event.preventDefault();
      clear();
    }
  });
  // the host's own corner: the key that stops the judge
  const host = document.getElementById("judge-host");
  const stop = document.getElementById("judge-stop");
  host.addEventListener("click", () => {
    stop.hidden = !stop.hidden;
    host.setAttribute("aria-expanded", String(!stop.hidden));
    if (!stop.hidden) stop.querySelector("input[type=password]").focus();
  });
  input.focus();
})();
