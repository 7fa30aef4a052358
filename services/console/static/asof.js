// The as-of slider moves the date field; the form reloads the dimension as of that day.
"use strict";
(function () {
  var slider = document.getElementById("as_of_slider");
  var field = document.getElementById("as_of");
  if (!slider || !field) { return; }
  function day(seconds) { return new Date(seconds * 1000).toISOString().slice(0, 10); }
  slider.addEventListener("input", function () { field.value = day(Number(slider.value)); });
  slider.addEventListener("change", function () { field.form.submit(); });
})();
