"""The gettext catalogues of carom (docs/i18n.md): ``<lang>/LC_MESSAGES/carom.po``, the
compiled ``carom.mo`` beside each, and :mod:`carom.locale.catalogues`, which keeps them
in step with the code."""
