"""Twenty Questions: the project's candidate pools with attribute tables (data files in
``data/``, checked on load by `infoseek.builders.twenty_questions.pools`), the game records and
the attribute-table CSP problems (`infoseek.builders.twenty_questions.builder`)."""
