"""Settings for every test: the command line and the terminal speak English in tests,
whatever the machine's locale (docs/i18n.md); a test that wants a language says so."""

from __future__ import annotations

import os

os.environ["LANGUAGE"] = "en"
