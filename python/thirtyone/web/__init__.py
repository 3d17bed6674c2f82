"""Play in the browser: ``thirtyone serve`` (the ``web`` extra: Starlette, uvicorn, websockets).

The browser is one more front-end of the same game: the session of :mod:`thirtyone.game`, the
saves and the record of :mod:`thirtyone.store`, the Oracle of :mod:`thirtyone.oracle`. Nothing
here is loaded by ``import thirtyone``; :func:`thirtyone.web.app.create_app` builds the
application, :func:`thirtyone.web.server.serve` serves it. docs/web.md is the protocol.
"""
