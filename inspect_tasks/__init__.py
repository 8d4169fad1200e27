# inspect-evals-lint: ignore-file[init_exports] -- the entry point finds the tasks lazily
# (exporting them here would import every task module whenever Inspect starts).
