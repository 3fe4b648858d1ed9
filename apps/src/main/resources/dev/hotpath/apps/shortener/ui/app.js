// The shortener's web page: talks to the JSON API of docs/API.md with the API key the user pastes.
// The key lives in this browser's local storage and goes out only in the Authorization header of the
// page's own requests. Every value from the API is put into the page as text (textContent, never
// innerHTML), so a long URL holding markup shows as what it is.
"use strict";

const KEY = "hotpath.apiKey";
const PAGE_SIZE = 20;
const $ = (id) => document.getElementById(id);

// Which field of the create form each error code of the API belongs to; the rest go under the form.
const FIELD_OF_ERROR = {
  invalid_url: "url", denied_host: "url",
  invalid_alias: "alias", alias_taken: "alias",
  invalid_expiry: "expires",
  invalid_protected: "protected",
};

let pageStart = null; // the `after` cursor of the page shown (null: the first page)
let nextCursor = null;

function key() {
  return localStorage.getItem(KEY);
}

// Calls the API; resolves to {status, body} (body parsed when it is JSON), status 0 when the server
// could not be reached. Never rejects: every caller shows what went wrong where it happened. A refused
// key forgets nothing by itself: the user decides, with the notice saying why; any other answer
// clears that notice.
async function api(method, path, body) {
  const headers = { Authorization: "Bearer " + key() };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
  }
  let response;
  let parsed = null;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const type = response.headers.get("Content-Type") || "";
    parsed = type.startsWith("application/json") ? await response.json() : null;
  } catch (e) {
    notice("The server cannot be reached (" + e.message + "). Try again once it is back.");
    return { status: 0, body: null };
  }
  if (response.status === 401) {
    notice("The server refused this API key (" + (parsed ? parsed.message : "401") + "). Forget it and paste another.");
  } else {
    notice("");
  }
  return { status: response.status, body: parsed };
}

// What an answer that is not the one hoped for says, in words.
function reason(answer) {
  if (answer.body && answer.body.message) return answer.body.message;
  return answer.status === 0 ? "the server cannot be reached" : "the server answered " + answer.status;
}

function notice(text) {
  $("notice").textContent = text;
  $("notice").hidden = !text;
}

function showKeyState() {
  const saved = key() !== null;
  $("key-form").hidden = saved;
  $("key-saved").hidden = !saved;
  $("app").hidden = !saved;
  if (saved) {
    refresh();
  } else {
    notice("");
  }
}

async function refresh() {
  await Promise.all([loadStats(), loadPage(pageStart)]);
}

// After this page's own create or delete: the list again, and the link count moved by hand, since
// asking for the stats counts every link (a table scan in the scale-out mode).
function countLinks(change) {
  const shown = $("stat-links");
  const count = Number(shown.dataset.count);
  if (!Number.isNaN(count)) {
    shown.dataset.count = count + change;
    shown.textContent = (count + change).toLocaleString();
  }
}

async function loadStats() {
  const { status, body } = await api("GET", "/api/stats");
  if (status !== 200) {
    return;
  }
  $("stat-links").dataset.count = body.links;
  $("stat-links").textContent = body.links.toLocaleString();
  $("stat-visits").textContent = body.visits.toLocaleString();
  $("stat-capacity").textContent = body.capacity.toLocaleString();
  $("stat-uptime").textContent = duration(body.uptime_s);
}

function duration(seconds) {
  if (seconds < 120) return seconds + " s";
  if (seconds < 7200) return Math.floor(seconds / 60) + " min";
  if (seconds < 172800) return Math.floor(seconds / 3600) + " h";
  return Math.floor(seconds / 86400) + " days";
}

async function loadPage(after) {
  const query = "?limit=" + PAGE_SIZE + (after ? "&after=" + encodeURIComponent(after) : "");
  const answer = await api("GET", "/api/links" + query);
  const { status, body } = answer;
  if (status !== 200) {
    if (status !== 401) notice("The list could not be loaded: " + reason(answer) + ".");
    return;
  }
  if (body.links.length === 0 && after !== null) {
    return loadPage(null); // the links of this page were deleted: back to the first one
  }
  pageStart = after;
  nextCursor = body.next;
  const rows = $("links");
  rows.replaceChildren(...body.links.map(linkRow));
  $("links-empty").hidden = body.links.length > 0;
  $("next-page").disabled = nextCursor === null;
  $("first-page").disabled = after === null;
}

function when(timestamp) {
  return timestamp === null ? "never" : timestamp.replace("T", " ").replace(/:\d\d\.\d+Z$/, " UTC");
}

function cell(text, className) {
  const td = document.createElement("td");
  td.textContent = text;
  if (className) td.className = className;
  return td;
}

function button(text, className, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  b.className = className;
  b.addEventListener("click", onClick);
  return b;
}

function linkRow(link) {
  const tr = document.createElement("tr");
  tr.dataset.code = link.code;
  const shortCell = document.createElement("td");
  const a = document.createElement("a");
  a.href = link.short_url;
  a.textContent = link.short_url;
  a.target = "_blank";
  a.rel = "noopener noreferrer";
  shortCell.append(a);
  const actions = document.createElement("td");
  actions.className = "actions";
  actions.append(
    button("Copy", "quiet copy", (e) => copy(link.short_url, e.target)),
    button("QR", "quiet qr", () => showQr(link)),
    button("Delete", "danger delete", () => confirmDelete(link, actions)));
  tr.append(shortCell, cell(link.long_url, "long"), cell(when(link.created_at)), cell(when(link.expires_at)),
    cell(String(link.visits), "visits"), actions);
  return tr;
}

// Asks in the row itself (no browser dialog): Delete turns into "Delete for good?" Yes / No.
function confirmDelete(link, actions) {
  const kept = [...actions.childNodes];
  const question = document.createElement("span");
  question.textContent = "Delete for good?";
  const no = button("No", "quiet confirm-no", () => actions.replaceChildren(...kept));
  const yes = button("Yes, delete", "danger confirm-yes", async () => {
    const answer = await api("DELETE", "/api/links/" + encodeURIComponent(link.code));
    if (answer.status === 204 || answer.status === 410) {
      if (answer.status === 204) countLinks(-1);
      await loadPage(pageStart);
    } else {
      question.textContent = "Not deleted: " + reason(answer) + ".";
    }
  });
  actions.replaceChildren(question, yes, no);
}

// The button says how it went and keeps saying it: a later copy is another button's click.
async function copy(text, target) {
  try {
    await navigator.clipboard.writeText(text);
    target.textContent = "Copied";
  } catch (e) {
    target.textContent = "Copy failed: select the link and copy it";
  }
}

function qrPath(code) {
  return "/api/links/" + encodeURIComponent(code) + "/qr.svg";
}

function showQr(link) {
  $("qr-url").textContent = link.short_url;
  $("qr-image-error").hidden = true;
  $("qr-image").src = qrPath(link.code);
  $("qr-image").alt = "QR code of " + link.short_url;
  $("qr-dialog").showModal();
}

function clearErrors() {
  for (const field of ["url", "alias", "expires", "protected", "create"]) {
    const p = $(field + "-error");
    p.textContent = "";
    p.hidden = true;
  }
}

function showError(field, message) {
  const p = $(field + "-error");
  p.textContent = message;
  p.hidden = false;
}

async function create(event) {
  event.preventDefault();
  clearErrors();
  const request = { url: $("url").value.trim() };
  const alias = $("alias").value.trim();
  if (alias) request.alias = alias;
  if ($("expires").validity.badInput) {
    showError("expires", "give both a date and a time, or neither");
    return;
  }
  if ($("expires").value) {
    request.expires_at = new Date($("expires").value).toISOString(); // the local time, in UTC
  }
  if ($("protected").checked) request.protected = true;
  $("create").disabled = true;
  try {
    const answer = await api("POST", "/api/links", request);
    const { status, body } = answer;
    if (status === 201) {
      $("create-form").reset();
      $("created-link").href = body.short_url;
      $("created-link").textContent = body.short_url;
      $("created-qr-error").hidden = true;
      $("created-qr").src = qrPath(body.code);
      $("created-copy").textContent = "Copy";
      $("created").hidden = false;
      countLinks(1);
      await loadPage(pageStart);
    } else {
      const retry = status === 503 ? " Try again in a moment." : "";
      showError((body && FIELD_OF_ERROR[body.error]) || "create", reason(answer) + "." + retry);
    }
  } finally {
    $("create").disabled = false;
  }
}

document.addEventListener("DOMContentLoaded", () => {
  $("key-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const value = $("key").value.trim();
    if (value) {
      localStorage.setItem(KEY, value);
      $("key").value = "";
      showKeyState();
    }
  });
  $("forget-key").addEventListener("click", () => {
    localStorage.removeItem(KEY);
    pageStart = null;
    $("links").replaceChildren();
    $("created").hidden = true;
    for (const stat of ["stat-links", "stat-visits", "stat-capacity", "stat-uptime"]) {
      $(stat).textContent = "–";
      delete $(stat).dataset.count;
    }
    showKeyState();
  });
  // A QR code the server cannot give (the link is gone, or it is busy) says so instead of a broken image.
  for (const id of ["created-qr", "qr-image"]) {
    $(id).addEventListener("error", () => { $(id + "-error").hidden = false; });
  }
  $("create-form").addEventListener("submit", create);
  $("created-copy").addEventListener("click", (e) => copy($("created-link").textContent, e.target));
  $("next-page").addEventListener("click", () => loadPage(nextCursor));
  $("first-page").addEventListener("click", () => loadPage(null));
  $("qr-close").addEventListener("click", () => $("qr-dialog").close());
  showKeyState();
});
