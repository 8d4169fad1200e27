"""What the tests share: helpers (`common`), referees, fuzz catalogues, hypothesis
strategies, the toy domain, and the fixture files under `fixtures/`."""

from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures"
