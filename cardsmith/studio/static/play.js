// The Play page: highlight the cards a move uses, post a move once, note rule changes.
// Plain DOM: the page is server-rendered; nothing here builds HTML from text.
(function () {
  "use strict";

  function cardsOf(button) {
    var numbers = (button.dataset.cards || "").split(" ").filter(Boolean);
    var found = [];
    numbers.forEach(function (n) {
      document.querySelectorAll('#board .pcard[data-card="' + n + '"]').forEach(function (el) { found.push(el); });
    });
    return found;
  }

  function mark(button, on) {
    cardsOf(button).forEach(function (el) { el.classList.toggle("used", on); });
  }

  document.querySelectorAll("#moves button.move").forEach(function (button) {
    ["mouseenter", "focus"].forEach(function (ev) { button.addEventListener(ev, function () { mark(button, true); }); });
    ["mouseleave", "blur"].forEach(function (ev) { button.addEventListener(ev, function () { mark(button, false); }); });
  });

  // a second click while the first move is on its way would be refused (a stale step): do not send it
  document.querySelectorAll("form.moves, form.undo").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      if (form.dataset.sent) { event.preventDefault(); return; }
      form.dataset.sent = "1";
      form.classList.add("sent");
    });
  });

  // the game was edited: this match keeps the rules it started with
  document.addEventListener("studio:changed", function (event) {
    var play = document.getElementById("play");
    var note = document.getElementById("rules-changed");
    if (!play || !note || !event.detail) { return; }
    if (String(event.detail.version) !== play.dataset.version) {
      note.textContent = "the game changed (version " + event.detail.version + "): this match keeps the rules it began with";
      note.hidden = false;
    }
  });

  // the start form: seats past the number of players are not used
  var players = document.getElementById("players");
  if (players) {
    var show = function () {
      var count = parseInt(players.value, 10) || 0;
      document.querySelectorAll(".seat-row").forEach(function (row) {
        row.hidden = parseInt(row.dataset.seat, 10) > count;
      });
    };
    var mode = document.querySelector('select[name="mode"]');
    if (mode) {
      mode.addEventListener("change", function () {
        var opt = mode.selectedOptions[0];
        players.min = opt.dataset.low; players.max = opt.dataset.high;
        var n = parseInt(players.value, 10);
        if (n < +opt.dataset.low) { players.value = opt.dataset.low; }
        if (n > +opt.dataset.high) { players.value = opt.dataset.high; }
        show();
      });
    }
    players.addEventListener("input", show);
    show();
  }
})();
