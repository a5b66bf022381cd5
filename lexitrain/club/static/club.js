// lexitrain club: the page over the club's JSON API (docs/club.md). Every write sends the session's CSRF token.
// (common.js, the local app's, is loaded first: its JSON calls and its clock text.)
"use strict";
const $ = (id) => document.getElementById(id);
let me = null;   // {member, csrf, admin}
let studying = null;  // the question on show: {kind, key, card: {last_review, ...}}

function notice(text) { $("notice").textContent = text || ""; }

// A JSON call to the club: common.js's lexitrain.api, as every page of the app calls (the page has no data-base: the
// club's own paths; a write carries the session's CSRF token, the body's data-csrf once the member is in; an error is
// thrown as its one line). A 401 while a member is in means their session ended (a password reset, a log-out on
// another device, its 30 days): the login comes back, saying so (the page went on showing the club, each click
// answered "log in first (POST /api/session)").
async function api(method, path, data) {
  try {
    return await lexitrain.api(method, path, data);
  } catch (e) {
    if (e.status === 401 && me) {
      loggedOut();
      throw new Error("Your session has ended (a new password, a log-out elsewhere, or 30 days passed): log in again.");
    }
    throw e;
  }
}

function loggedOut() {
  me = null;
  delete document.body.dataset.csrf;
  $("who").textContent = "";
  $("log-out").classList.add("hidden");
  $("club").classList.add("hidden");
  $("login").classList.remove("hidden");
}

function row(tbody, values) {
  const tr = document.createElement("tr");
  for (const value of values) { const td = document.createElement("td"); td.textContent = value; tr.append(td); }
  tbody.append(tr);
  return tr;
}

async function refreshBoard() {
  const kind = $("kind").value;
  const board = await api("GET", `/api/leaderboard?kind=${encodeURIComponent(kind)}`);
  const body = $("board").tBodies[0];
  body.replaceChildren();
  $("board-kind").textContent = kind;
  board.forEach((entry, i) => {
    const tr = row(body, [i + 1, entry.member, `${entry.score} / ${entry.total}`, lexitrain.clockText(entry.seconds)]);
    if (me && entry.member === me.member) tr.className = "mine";
  });
  const medals = $("medals").tBodies[0];
  medals.replaceChildren();
  for (const m of await api("GET", `/api/medals?kind=${encodeURIComponent(kind)}`)) {
    row(medals, [m.member, `gold ${m.gold}`, `silver ${m.silver}`, `bronze ${m.bronze}`]);
  }
  const tough = await api("GET", "/api/toughies");
  $("toughies").textContent = tough.length ? tough.slice(0, 20).map((t) => `${t.alphagram} (${t.misses})`).join(", ")
                                          : "none missed yet";
}

// The open tables, each joined (or, for one the member sits at, opened again) on its wall page.
async function refreshTables() {
  const open = await api("GET", "/api/tables");
  const body = $("tables").tBodies[0];
  body.replaceChildren();  // (after the await: two refreshes at once never both add their rows)
  for (const t of open) {
    const tr = row(body, [`table ${t.table}`, `opened by ${t.owner}${t.practice ? " (practice)" : ""}`,
                          `${t.seated} seated`,
                          t.time_left === null ? "untimed" : `${lexitrain.clockText(Math.ceil(t.time_left))} left`]);
    const td = document.createElement("td");
    const join = document.createElement("button");
    join.textContent = "Join";
    join.onclick = () => joinTable(t.table).catch((e) => notice(e.message));
    td.append(join);
    tr.append(td);
  }
}

// The member's most overdue card, drawn as the local app's reviews draw it (common.js): letters, a word to judge,
// or a position's board (a best play, an endgame, what the opponent kept).
async function refreshStudy() {
  const got = await api("GET", "/api/study");
  $("due-count").textContent = `${got.due} due`;
  studying = got.questions[0] || null;
  $("study-refused").textContent = "";
  $("study-shown").hidden = true;
  $("study-asking").hidden = false;
  if (!studying) { $("study").classList.add("hidden"); return; }
  $("study").classList.remove("hidden");
  $("study-kind").textContent = studying.kind;
  lexitrain.showQuestion($("study-prompt"), $("study-about"), studying);
  $("study-prompt").dataset.key = studying.key;
  $("study-answer").focus();
}

// An answered card, as the reviews show one (common.js): its question kept, the verdict and what the answer showed
// (the words' facts, or a position's top plays, or the kind's own table) under it, and Next for the next card.
const answered = {asking: $("study-asking"), shown: $("study-shown"), line: $("study-verdict"), next: $("study-next"),
                  tables: {words: $("study-words"), answers: $("study-answers"), plays: $("study-plays"),
                           line: $("study-line")}};

async function loggedIn(session) {
  me = session;
  document.body.dataset.csrf = me.csrf;
  $("who").textContent = `${me.member}${me.admin ? " (admin)" : ""}`;
  $("password-form").elements.name.value = me.member;  // (a password manager's username for the new password)
  $("log-out").classList.remove("hidden");
  $("admin").classList.toggle("hidden", !me.admin);
  $("login").classList.add("hidden");
  $("club").classList.remove("hidden");
  // each part of the page on its own: the due count is not held back by the leaderboard (nor blanked by its
  // failure), and says it is counting until it is counted
  $("due-count").textContent = "counting due cards…";
  $("club").setAttribute("aria-busy", "true");
  const parts = [refreshStudy(), refreshBoard(), refreshTables(), ...(me.admin ? [refreshMembers()] : [])];
  const failed = (await Promise.allSettled(parts)).find((part) => part.status === "rejected");
  $("club").removeAttribute("aria-busy");
  if (failed) notice(failed.reason.message);
}

$("login-form").onsubmit = async (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  try {
    await api("POST", "/api/session", {name: form.get("name"), password: form.get("password")});
    notice("");
    await loggedIn(await api("GET", "/api/session"));
  } catch (e) { notice(e.message); }
};

$("join-form").onsubmit = async (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  const body = {name: form.get("name"), password: form.get("password"), invite: form.get("invite")};
  try {
    await api("POST", "/api/members", body);
    await api("POST", "/api/session", {name: body.name, password: body.password});
    notice("");
    await loggedIn(await api("GET", "/api/session"));
  } catch (e) { notice(e.message); }
};

$("log-out").onclick = async () => {
  try {
    await api("DELETE", "/api/session");
    location.reload();  // (the page starts again as a visitor's: the login)
  } catch (e) { notice(e.message); }
};

// The member's own new password: the current one verified by the club, the new one typed twice (the browser says
// which field is wrong before anything is sent); the club ends their other sessions, this one stays.
$("password-form").onsubmit = async (event) => {
  event.preventDefault();
  const form = event.target;
  const again = form.elements.again;
  if (form.elements.password.value !== again.value) {
    again.setCustomValidity("The two new passwords differ.");
    again.reportValidity();
    return;
  }
  try {
    await api("POST", "/api/password", {current: form.elements.current.value, password: form.elements.password.value});
    form.reset();
    $("password-refused").textContent = "";
    $("password-said").textContent = "Your password is changed; your other sessions have ended.";
  } catch (e) {
    // Said beside the form (on a phone the page's notice is a screen away), but a session that ended is the
    // page's: the login is back and says so.
    $("password-said").textContent = "";
    if (!me) { notice(e.message); return; }
    $("password-refused").textContent = e.message;
    $("password-refused").scrollIntoView({block: "nearest"});
  }
};
$("password-form").elements.again.oninput = (event) => event.target.setCustomValidity("");

// Today's challenge: the member's attempt of the kind (the open one, or a new one), played on its wall page.
$("start").onclick = async () => {
  try {
    localStorage.setItem(KIND_KEPT, $("kind").value);
    const got = await api("GET", `/api/challenge?kind=${encodeURIComponent($("kind").value)}`);
    location.assign(`/challenge/${got.attempt}`);
  } catch (e) { notice(e.message); }
};

// An admin's invitation code for one new member (an organiser had only the API or `lexitrain serve invite`).
$("invite").onclick = async () => {
  try {
    $("invite-code").textContent = (await api("POST", "/api/admin/invites")).invite;
    notice("");
  } catch (e) { notice(e.message); }
};

// The club's members, for an admin: reset one's password or remove one, each asked in a dialog first (an organiser
// had only the API for both). An admin's own row has neither: the club refuses an admin removing themself.
async function refreshMembers() {
  const listed = await api("GET", "/api/admin/members");
  const body = $("members").tBodies[0];
  body.replaceChildren();
  for (const m of listed) {
    const tr = row(body, [m.member + (m.admin ? " (admin)" : ""),
                          `joined ${new Date(m.joined * 1000).toLocaleDateString(undefined, {dateStyle: "medium"})}`]);
    const actions = lexitrain.el("div", "actions");
    if (m.member !== me.member) {
      actions.append(button("Reset password", `Reset ${m.member}'s password`, () => resetPassword(m.member)),
                     button("Remove", `Remove ${m.member}`, () => removeMember(m.member), "danger"));
    }
    tr.append(lexitrain.el("td"));
    tr.lastChild.append(actions);
  }
}

function button(text, label, action, className) {
  const made = lexitrain.el("button", className, text);
  made.type = "button";
  made.setAttribute("aria-label", label);
  made.onclick = () => action().catch((e) => notice(e.message));
  return made;
}

// DIALOG asked about the member NAME: the value of the button that closed it ("" for Cancel or Escape).
function ask(dialog, name) {
  for (const slot of dialog.querySelectorAll(".named")) slot.textContent = name;
  dialog.querySelector("form").reset();
  dialog.returnValue = "";
  dialog.showModal();
  return new Promise((resolve) => dialog.addEventListener("close", () => resolve(dialog.returnValue), {once: true}));
}

async function resetPassword(name) {
  if (await ask($("reset-dialog"), name) !== "set") return;
  const password = new FormData($("reset-form")).get("password");
  await api("POST", `/api/admin/members/${encodeURIComponent(name)}/password`, {password});
  notice("");
  $("members-said").textContent = `${name}'s password is set and their sessions ended: give them the new one.`;
}

async function removeMember(name) {
  if (await ask($("remove-dialog"), name) !== "remove") return;
  const progress = await api("DELETE", `/api/admin/members/${encodeURIComponent(name)}`);
  const file = `${name}-progress.json`;
  const link = lexitrain.el("a");
  link.href = URL.createObjectURL(new Blob([JSON.stringify(progress)], {type: "application/json"}));
  link.download = file;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 60000);
  notice("");
  $("members-said").textContent = `${name} is removed; their progress was saved as ${file}, for you to hand to them.`;
  await refreshMembers();
}

// A table: sit down (again is harmless), then play it on its wall page.
async function joinTable(id) {
  await api("POST", `/api/tables/${id}/join`);
  location.assign(`/tables/${id}`);
}

// A table's time as typed: minutes (3, 2.5) or m:ss (1:30); blank: the set's own time (null); else an error.
function tableSeconds(typed) {
  const text = typed.trim();
  if (!text) return null;
  const parts = /^(\d+):([0-5]\d)$/.exec(text);
  const seconds = parts ? 60 * Number(parts[1]) + Number(parts[2]) : /^\d*\.?\d+$/.test(text) ? Math.round(60 * Number(text)) : NaN;
  if (!(seconds >= 30 && seconds <= 3600)) throw new Error("a table's time: minutes (3) or m:ss (1:30), from 0:30 to 60:00");
  return seconds;
}

$("open-table").onclick = async () => {
  try {
    const asked = {challenge: $("kind").value};
    const seconds = tableSeconds($("table-time").value);
    if (seconds !== null) asked.seconds = seconds;
    const opened = await api("POST", "/api/tables", asked);
    location.assign(`/tables/${opened.table}`);
  } catch (e) { notice(e.message); }
};

$("study-start").onclick = () => refreshStudy().catch((e) => notice(e.message));
$("study-next").onclick = () => refreshStudy().catch((e) => notice(e.message));

$("study-answer").onkeydown = lexitrain.guarded(async (event) => {
  if (event.key !== "Enter" || !studying) return;
  const answer = event.target.value.trim();
  const hint = studying.hint;
  let said;
  try {
    said = await api("POST", "/api/study/answer",
                     {kind: studying.kind, key: studying.key, answer, reviewed: studying.card.last_review});
  } catch (e) {  // (409: answered on another device: the next question comes at once)
    notice(e.message);
    event.target.value = "";
    return refreshStudy().catch((e) => notice(e.message));
  }
  if (said.refused) {  // not an answer the card takes (an illegal play, not v or p): the same card, to try again
    $("study-refused").textContent = said.refused;
    event.target.select();
    return;
  }
  event.target.value = "";
  const next = new Date(said.card.due * 1000).toLocaleString();
  lexitrain.showAnswered(answered, said, hint, hint === "letters"
    ? (said.correct ? `Right: ${said.expected.join(" ")}; next review ${next}`
                    : `Missed ${studying.prompt}: ${said.expected.join(" ")}; back ${next}`)
    : `${lexitrain.answerVerdict(said, hint).replace(/\.?$/, ".")} ${said.correct ? "Next review" : "Back"} ${next}.`);
  try {  // the due count without this card (the next card waits for Next)
    $("due-count").textContent = `${(await api("GET", "/api/study")).due} due`;
  } catch (e) { notice(e.message); }
});

// The kind chosen last (on this browser) is the one shown again: back from a challenge, its leaderboard.
const KIND_KEPT = "lexitrain-club-kind";
if (localStorage.getItem(KIND_KEPT)) $("kind").value = localStorage.getItem(KIND_KEPT);
$("kind").onchange = () => {
  localStorage.setItem(KIND_KEPT, $("kind").value);
  refreshBoard().catch((e) => notice(e.message));
};

api("GET", "/api/session").then((session) => {
  $("lexicon").textContent = session.lexicon;
  return session.member && loggedIn(session);
}).catch((e) => notice(e.message));
