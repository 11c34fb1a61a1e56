"""The director's console of `tenace serve` (/director): a login, then the evening's work as pages, each form read into
the director's typed inputs (tenace.director) as the commands read their options, its refusals naming the form's
fields. `auth` logs the director in, `forms` reads the action forms, `room` is what every page of the console shares
(the event file, pages, checked posts), `routes` the login, the problems and the actions; each area of the evening
adds its own module of routes to `routes.AREAS`."""

from tenace.protocol.http_guard import REFUSED_DELAY_S
from tenace.web.console.auth import COOKIE, IDLE_S, MIN_PASSWORD, Director
from tenace.web.console.routes import console_routes

__all__ = ["COOKIE", "IDLE_S", "MIN_PASSWORD", "REFUSED_DELAY_S", "Director", "console_routes"]
