"""The app's shared parts: services and rendering (deps), sessions (auth), the guard, words
and formats (i18n), the live hub and channel, form checks, match views, PDF/CSV tables."""
