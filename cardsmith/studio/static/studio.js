// cardsmith studio: the change stream every page shares.
// The server sends one `change` event per new version of the game (a file was saved).
// This script refreshes the status badge and the problems panel, then tells the page's
// own script what changed with a `studio:changed` event on document (detail: the status
// JSON, including `changed_cards`). Pages that need nothing more ignore it.
"use strict";
(function () {
  const body = document.body;
  let version = Number(body.dataset.version || 0);

  function setStatus(s) {
    const badge = document.getElementById("status");
    if (!badge) return;
    let text = s.errors ? s.errors + " error(s)" : "checks clean";
    if (s.warnings) text += ", " + s.warnings + " warning(s)";
    badge.textContent = text;
    badge.className = "status " + (s.errors ? "bad" : "good");
    badge.title = "checked in " + s.seconds.toFixed(2) + " s";
  }

  async function refreshProblems() {
    const slot = document.getElementById("problems");
    if (!slot) return;
    const response = await fetch("/fragments/problems", {cache: "no-store"});
    if (response.ok) slot.innerHTML = await response.text();
  }

  function listen() {
    const source = new EventSource("/events?since=" + version);
    source.addEventListener("change", async function (event) {
      const s = JSON.parse(event.data);
      if (s.version <= version) return;
      version = s.version;
      body.dataset.version = String(version);
      setStatus(s);
      await refreshProblems();
      document.dispatchEvent(new CustomEvent("studio:changed", {detail: s}));
      body.dataset.updated = String(version);  // tests wait for this
    });
  }
  listen();
})();
