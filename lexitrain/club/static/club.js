// lexitrain club: the page over the club's JSON API (docs/club.md). Every write sends the session's CSRF token.
"use strict";
const $ = (id) => document.getElementById(id);
let me = null;   // {member, csrf, admin}
let attempt = null;
let table = null;
let socket = null;
let studying = null;  // the question on show: {kind, key, card: {last_review, ...}}

function notice(text) { $("notice").textContent = text || ""; }

async function api(method, path, body) {
  const headers = {"content-type": "application/json"};
  if (me && method !== "GET") headers["x-csrf-token"] = me.csrf;
  const response = await fetch(path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)});
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
  return data;
}

function cell(key, found) {
  const div = document.createElement("div");
  div.className = "cell";
  div.dataset.key = key;
  const tiles = document.createElement("span");
  tiles.className = "tiles";
  tiles.textContent = key;
  const words = document.createElement("div");
  words.className = "found";
  words.textContent = (found || []).join(" ");
  div.append(tiles, words);
  return div;
}

function cellOf(wall, key) { return [...wall.children].find((c) => c.dataset.key === key); }

function addFound(wall, key, word) {
  const target = cellOf(wall, key);
  if (!target) return;
  const words = target.querySelector(".found");
  const list = words.textContent ? words.textContent.split(" ") : [];
  if (!list.includes(word)) list.push(word);
  words.textContent = list.join(" ");
  const needed = Number(target.dataset.answers || 0);
  if (needed && list.length >= needed) target.classList.add("done");
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
  board.forEach((entry, i) => row(body, [i + 1, entry.member, `${entry.score} / ${entry.total}`, entry.seconds]));
  const medals = $("medals").tBodies[0];
  medals.replaceChildren();
  for (const m of await api("GET", `/api/medals?kind=${encodeURIComponent(kind)}`)) {
    row(medals, [m.member, `gold ${m.gold}`, `silver ${m.silver}`, `bronze ${m.bronze}`]);
  }
  const tough = await api("GET", "/api/toughies");
  $("toughies").textContent = tough.length ? tough.slice(0, 20).map((t) => `${t.alphagram} (${t.misses})`).join(", ")
                                          : "none missed yet";
}

async function refreshTables() {
  const open = await api("GET", "/api/tables");
  const body = $("tables").tBodies[0];
  body.replaceChildren();  // (after the await: two refreshes at once never both add their rows)
  for (const t of open) {
    const tr = row(body, [`table ${t.table}`, `opened by ${t.owner}`, `${t.seated} seated`]);
    const td = document.createElement("td");
    if (t.table === table) {
      td.textContent = "your table";
    } else {
      const join = document.createElement("button");
      join.textContent = "Join";
      join.onclick = () => joinTable(t.table).then(refreshTables).catch((e) => notice(e.message));
      td.append(join);
    }
    tr.append(td);
  }
}

async function refreshStudy() {
  const got = await api("GET", "/api/study");
  $("due-count").textContent = `${got.due} due`;
  studying = got.questions[0] || null;
  if (!studying) { $("study").classList.add("hidden"); return; }
  $("study").classList.remove("hidden");
  $("study-prompt").textContent = studying.prompt;
  $("study-prompt").dataset.key = studying.key;
  $("study-about").textContent = `${studying.answers} answer${studying.answers === 1 ? "" : "s"} (${studying.kind})`;
}

async function loggedIn(session) {
  me = session;
  $("who").textContent = `${me.member}${me.admin ? " (admin)" : ""}`;
  $("log-out").classList.remove("hidden");
  $("login").classList.add("hidden");
  $("club").classList.remove("hidden");
  await refreshBoard();
  await refreshTables();
  await refreshStudy();
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

// The verdict on the last challenge guess, beside the guess box (empty to clear it).
function verdict(text, kind) {
  $("guess-verdict").textContent = text || "";
  $("guess-verdict").className = kind || "";
}

$("start").onclick = async () => {
  try {
    const got = await api("GET", `/api/challenge?kind=${encodeURIComponent($("kind").value)}`);
    attempt = got.attempt;
    $("challenge-wall").replaceChildren(...got.alphagrams.map((key) => cell(key)));
    $("guess").classList.remove("hidden");
    $("finish").classList.remove("hidden");
    $("result").textContent = `${got.kind}, ${got.date}: ${got.alphagrams.length} alphagrams`;
    verdict("");
    $("guess").focus();
  } catch (e) { notice(e.message); }
};

$("guess").onkeydown = async (event) => {
  if (event.key !== "Enter" || !attempt) return;
  const word = event.target.value.trim();
  event.target.value = "";
  if (!word) return;
  try {
    const said = await api("POST", "/api/challenge/guess", {attempt, word});
    if (said.correct) addFound($("challenge-wall"), said.alphagram, word.toUpperCase());
    verdict(`${word.toUpperCase()}: ${said.correct ? "right" : "not an answer"}`, said.correct ? "right" : "wrong");
  } catch (e) { notice(e.message); }
};

$("finish").onclick = async () => {
  try {
    const done = await api("POST", "/api/challenge/finish", {attempt});
    attempt = null;
    $("guess").classList.add("hidden");
    $("finish").classList.add("hidden");
    $("result").textContent = `Score ${done.score} / ${done.total} in ${done.seconds} s`;
    verdict("");
    for (const [key, words] of Object.entries(done.missed)) {  // each unsolved cell shows what it missed
      const target = cellOf($("challenge-wall"), key);
      if (!target) continue;
      const missed = document.createElement("div");
      missed.className = "missed";
      missed.textContent = words.join(" ");
      target.classList.add("unsolved");
      target.append(missed);
    }
    await refreshBoard();
    await refreshStudy();
  } catch (e) { notice(e.message); }
};

function showEvent(event) {
  const line = document.createElement("div");
  if (event.type === "guess") {
    line.textContent = `${event.member}: ${event.word}${event.correct ? "" : " ✗"}`;
    if (!event.correct) line.className = "wrong";
    if (event.correct) addFound($("table-wall"), event.alphagram, event.word);
  } else if (event.type === "join") {
    line.textContent = `${event.member} sat down`;
    $("seated").textContent = event.seated.join(", ");
    refreshTables().catch((e) => notice(e.message));
  } else if (event.type === "end") {
    line.textContent = "the table is over";
    const body = $("scoreboard").tBodies[0];
    body.replaceChildren();
    for (const s of event.scoreboard) row(body, [s.member, `${s.found} found`]);
    $("end-table").disabled = true;
    $("table-guess").disabled = true;
    refreshTables().catch((e) => notice(e.message));
  }
  $("table-log").prepend(line);
}

async function joinTable(id) {
  const state = await api("POST", `/api/tables/${id}/join`);
  table = id;
  $("table").classList.remove("hidden");
  $("table-id").textContent = id;
  $("seated").textContent = state.seated.join(", ");
  $("table-wall").replaceChildren(...state.alphagrams.map((key) => {
    const c = cell(key);
    c.dataset.answers = state.answers[key];
    return c;
  }));
  $("table-log").replaceChildren();
  $("scoreboard").tBodies[0].replaceChildren();
  $("end-table").disabled = false;
  $("end-table").classList.toggle("hidden", state.owner !== me.member);  // (only the member who opened it ends it)
  $("table-guess").disabled = false;
  if (socket) socket.close();
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/api/tables/${id}/events`);
  socket.onmessage = (message) => {
    const event = JSON.parse(message.data);
    if (event.table === table) showEvent(event);  // (not one still on its way from a table left)
  };
  $("table-guess").focus();
}

$("open-table").onclick = async () => {
  try {
    const opened = await api("POST", "/api/tables", {challenge: $("kind").value});
    await joinTable(opened.table);
    await refreshTables();
  } catch (e) { notice(e.message); }
};

$("table-guess").onkeydown = async (event) => {
  if (event.key !== "Enter" || table === null) return;
  const word = event.target.value.trim();
  event.target.value = "";
  if (!word) return;
  try { await api("POST", `/api/tables/${table}/guess`, {word}); } catch (e) { notice(e.message); }
};

$("end-table").onclick = async () => {
  try { await api("POST", `/api/tables/${table}/end`); } catch (e) { notice(e.message); }
};

$("study-start").onclick = async () => {
  try { await refreshStudy(); $("study-answer").focus(); } catch (e) { notice(e.message); }
};

$("study-answer").onkeydown = async (event) => {
  if (event.key !== "Enter" || !studying) return;
  const answer = event.target.value.trim();
  event.target.value = "";
  const verdict = $("study-verdict");
  try {
    const said = await api("POST", "/api/study/answer",
                           {kind: studying.kind, key: studying.key, answer, reviewed: studying.card.last_review});
    const next = new Date(said.card.due * 1000).toLocaleString();
    verdict.className = said.correct ? "right" : "missed";
    verdict.textContent = said.correct ? `Right: ${said.expected.join(" ")}; next review ${next}`
                                       : `Missed ${studying.prompt}: ${said.expected.join(" ")}; back ${next}`;
  } catch (e) { notice(e.message); }  // (409: answered on another device; the next question comes anyway)
  await refreshStudy().catch((e) => notice(e.message));
};

$("kind").onchange = () => refreshBoard().catch((e) => notice(e.message));

api("GET", "/api/session").then((session) => {
  $("lexicon").textContent = session.lexicon;
  return session.member && loggedIn(session);
}).catch((e) => notice(e.message));
