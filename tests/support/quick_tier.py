"""The quick tier: `python -m pytest -m quick`, the inner loop (README, "Tests").

A chosen few fast tests of every layer, so that one command in well under two minutes
says whether a change broke the core, an engine, a builder, an oracle, a solver, a
scorer, a task, the report or the command line. `tests/conftest.py` marks the tests named
here `quick` when they are collected; a test file may also mark its own tests with
``@pytest.mark.quick``. The default run (`python -m pytest`, what CI runs) is unchanged:
it runs every test but the slow ones, the quick ones among them.

Each entry is a test file and the names of the test functions chosen in it (every
parametrisation of a name is chosen), or ``()`` for the whole file. Chosen by measured
time (`--durations=0`, 2 cores): unit tests of a few milliseconds, plus one short real
eval or report where a layer is only met through Inspect.
`tests/packaging/test_quick_tier.py` checks that every name here exists and that every
layer has tests in the tier, so a renamed test does not silently leave it.
"""

from __future__ import annotations

QUICK_TESTS: dict[str, tuple[str, ...]] = {
    # core
    "tests/core/test_domain_registry.py": (),
    "tests/core/test_contract.py": (
        "test_no_name_is_defined_twice", "test_every_layer_reads_the_contract",
        "test_an_incomplete_turn_record_stores_lists_in_the_field_order"),
    "tests/core/test_strategies.py": (
        "test_chain_needs_one_question", "test_mux_k_is_three_but_minimax_is_two",
        "test_mux_without_the_selector_is_impossible"),
    "tests/core/test_records_shape.py": (
        "test_check_shape_bounds_ids_and_names", "test_a_family_that_pins_no_value_is_refused",
        "test_no_samples_is_an_error_at_task_load"),
    # answers
    "tests/answers/test_answer_parsing.py": (
        "test_a_question_naming_one_attribute_asks_for_it",
        "test_seek_answers_match_exactly_and_never_overflows",
        "test_both_values_or_a_hedge_are_ambiguous",
        "test_an_echoed_option_list_is_not_a_k_prediction"),
    # engines
    "tests/engines/test_engine_registry.py": (),
    "tests/engines/test_engines_vs_referee.py": (
        "test_spec_task_level_example", "test_known_target_has_k_zero",
        "test_infeasible_subset_is_not_sufficient", "test_tables_reach_task_k_below_k",
        "test_cnf_strategy_produces_non_horn_problems"),
    "tests/engines/test_boolnet_engine.py": (
        "test_paper_example_fixed_points", "test_sat_fixed_points_exact_at_64_genes",
        "test_reader_names_file_and_line", "test_fixed_points_and_attractors_match_referee"),
    # builders and released files
    "tests/builders/test_logic_text.py": (),
    "tests/builders/test_builder_specs.py": (),
    "tests/builders/test_cache_integrity.py": (),
    "tests/published/test_source_errors.py": (),
    # oracles
    "tests/oracles/test_oracles.py": (
        "test_check_query_reasons", "test_refusal_text_names_reason_and_variable",
        "test_check_query_refuses_target_even_if_listed_askable",
        "test_oracle_rejects_impossible_hidden_value",
        "test_adversarial_and_cooperative_differ_where_it_matters",
        "test_random_oracle_unsure_only_when_undetermined"),
    # solvers
    "tests/solvers/test_seek_game.py": (),
    "tests/solvers/test_single_turn_game.py": (),
    "tests/solvers/test_parsing.py": (
        "test_valid_question_forms", "test_invalid_question_reasons", "test_valid_answers",
        "test_malformed_answers", "test_tool_ask_invalid_reasons", "test_tool_answer",
        "test_injection_attempts_reach_at_most_the_one_named_attribute"),
    "tests/solvers/test_bad_outputs.py": (
        "test_unknown_variable", "test_broken_tool_arguments", "test_empty_text"),
    "tests/solvers/test_human_player.py": (
        "test_a_reply_ends_at_an_empty_line_after_some_text",
        "test_the_provider_shows_new_messages_and_returns_the_typed_reply",
        "test_end_of_input_gives_up_the_sample_without_reading_again"),
    # scorers
    "tests/scorers/test_seek_metrics.py": (),
    "tests/scorers/test_problem_metrics.py": (),
    "tests/scorers/test_seek_and_problem_level_scorers.py": (
        "test_seek_sample_scores", "test_seek_log_round_trip",
        "test_k_prediction_metrics_in_log"),
    # tasks (and one end-to-end run of each problem-level protocol and of seek)
    "tests/tasks/test_task_parameters_types.py": (
        "test_every_choice_parameter_names_its_values", "test_numbers_are_bounded_and_typed",
        "test_per_k_is_capped_at_the_builders_cap", "test_force_ask_needs_turns_for_k_questions",
        "test_a_seed_is_any_64_bit_integer"),
    "tests/e2e/test_e2e_logic.py": (
        "test_k_prediction_optimal_is_exact", "test_optimal_solves_every_instance",
        "test_force_ask_rejects_an_immediate_answer",
        "test_tool_call_ids_need_not_be_unique_across_turns"),
    # report
    "tests/report/test_derived_lists.py": (
        "test_the_expectation_covers_every_task",
        "test_logs_that_name_no_report_are_read_by_their_scorers",
        "test_a_new_domains_tasks_get_a_report_with_no_edit"),
    "tests/report/test_report_inputs.py": (
        "test_what_makes_an_infoseek_run",
        "test_an_out_that_cannot_be_a_folder_is_refused_in_one_line",
        "test_a_task_file_run_by_its_path_is_reported"),
    # command line
    "tests/packaging/test_cli_files.py": (),
    "tests/packaging/test_cli_build.py": (),
    "tests/packaging/test_quick_tier.py": (),
}
"""Test file -> the test functions of the quick tier in it (``()``: all of them)."""

LAYERS = ("core", "answers", "engines", "builders", "oracles", "solvers", "scorers",
          "tasks", "e2e", "report", "packaging")
"""The test folders the tier must reach (tests mirror the layers; packaging holds the
command-line tests)."""


def is_quick(path: str, name: str) -> bool:
    """Whether the test function `name` of the file `path` (relative to the repository,
    with ``/``) is in the quick tier."""
    chosen = QUICK_TESTS.get(path)
    return chosen is not None and (not chosen or name in chosen)
