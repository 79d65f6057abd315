// cardsmith studio, Balance page: start a simulation, poll its progress, show its results.
// The server renders the results; when a run ends this script fetches the page again and
// swaps its results part in (server-escaped HTML, parsed with DOMParser). Messages from
// the server are shown with textContent only.
"use strict";
(function () {
  const form = document.getElementById("balance-form");
  if (!form) return;
  const bar = document.getElementById("balance-bar");
  const text = document.getElementById("balance-progress-text");
  const section = document.getElementById("balance-progress");
  const start = document.getElementById("balance-start");
  const cancel = document.getElementById("balance-cancel");
  const error = document.getElementById("balance-error");
  let polling = false;
  let gameOk = !document.getElementById("balance-refused");

  function describe(detail) {
    if (Array.isArray(detail)) {  // a validation error: which field, and why
      return detail.map(function (d) { return (d.loc || []).slice(-1)[0] + ": " + d.msg; }).join("; ");
    }
    return String(detail || "refused");
  }

  function show(p) {
    bar.max = Math.max(1, p.total);
    bar.value = p.done;
    text.textContent = p.done + " of " + p.total + " matches · " + p.state + (p.message ? " · " + p.message : "");
    section.dataset.state = p.state;
    const running = p.state === "running";
    start.disabled = running || !gameOk;
    cancel.hidden = !running;
  }

  async function refreshResults() {
    const response = await fetch("/balance", {cache: "no-store"});
    if (!response.ok) return;
    const html = new DOMParser().parseFromString(await response.text(), "text/html");
    const fresh = html.getElementById("balance-results");
    const slot = document.getElementById("balance-results");
    if (fresh && slot) slot.replaceWith(document.importNode(fresh, true));
    document.body.dataset.balance = "shown";  // tests wait for this
  }

  async function poll() {
    if (polling) return;
    polling = true;
    try {
      for (;;) {
        const response = await fetch("/balance/progress", {cache: "no-store"});
        if (response.ok) {
          const p = await response.json();
          show(p);
          if (p.state !== "running") {
            if (p.state === "done") await refreshResults();
            break;
          }
        }
        await new Promise(function (resolve) { setTimeout(resolve, 300); });
      }
    } finally {
      polling = false;
    }
  }

  form.addEventListener("submit", async function (event) {
    event.preventDefault();
    error.textContent = "";
    start.disabled = true;
    const response = await fetch("/balance/start", {method: "POST", body: new FormData(form),
                                                    headers: {"Accept": "application/json"}});
    if (!response.ok) {
      let detail = response.statusText;
      try { detail = describe((await response.json()).detail); } catch (e) { /* not JSON */ }
      error.textContent = detail;
      start.disabled = !gameOk;
      return;
    }
    document.body.dataset.balance = "running";
    show(await response.json());
    poll();
  });

  cancel.addEventListener("click", async function () {
    await fetch("/balance/cancel", {method: "POST"});
  });

  document.addEventListener("studio:changed", function (event) {
    gameOk = Boolean(event.detail.ok);
    if (section.dataset.state !== "running") start.disabled = !gameOk;
    error.textContent = gameOk ? "" : "The game has errors now: fix them before simulating (see Problems).";
  });

  if (section.dataset.state === "running") poll();
})();
