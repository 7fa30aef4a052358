"""The audit console: server-rendered pages at ``/console`` over the same Memory and keys as
the HTTP API (``services.console.pages``), with its session (``auth``), SVG charts
(``charts``) and turn highlighting (``highlight``). Templates and static assets ship in this
package: no build step, no CDN."""
