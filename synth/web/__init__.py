"""The review web page (`synth review --serve`): Starlette app, jinja2 templates, CSS."""

from synth.web.app import create_app

__all__ = ["create_app"]
