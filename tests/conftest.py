"""Shared fixtures: the compiled Savanna spec and its interpreter, the docs site built
once (strictly) for the tests that read it, the --update-golden option; the session's
settings: the steady solve plan, the ``slow`` marker (``make test-fast``), the
``xdist_group`` of the site's tests kept on one worker, no last walk of every object at
the end. The helpers (ROOT, savanna, grid, score, rel, run_command, ...) are in
helpers.py."""
from __future__ import annotations

import gc
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from helpers import ROOT, savanna


def pytest_addoption(parser):
    parser.addoption("--update-golden", action="store_true", help="rewrite golden files")


def pytest_configure(config):
    # Queries follow verify's steady solve plan (rulewright.solver.solving.plan): each
    # phase of a search has a budget of work, not of seconds, so a test's query costs
    # the same and takes the same path whatever the machine's load; the clock stops a
    # query only at 4 times the time limit the test gives (a loaded machine, a browser
    # test beside it: the same answer, later). (Set before the workers start: the
    # commands the tests run as processes follow it too.)
    os.environ.setdefault("RULEWRIGHT_SOLVE_PLAN", "steady")
    _temporary_files_in_memory()
    _cache_of_the_run(config)
    # The cycle collector runs rarely, as it does while a game runs (compiler/interpret/
    # collecting.py): the tests make many small values and few cycles (about 5% less
    # processor time for the suite, measured)
    from rulewright.compiler.interpret.collecting import FEW
    gc.set_threshold(FEW, 20, 20)
    config.pluginmanager.register(_GroupIds(), "rulewright-group-ids")


def _temporary_files_in_memory(least: int = 4 << 30) -> None:
    """The tests' temporary files (``tmp_path``, the site's build, the browsers' profiles,
    the commands' cache folder) in the machine's memory-backed folder, where it has one with
    room (``/dev/shm``, at least 4 GB free, programs allowed to run from it) and the person
    running the tests chose no folder of their own (``TMPDIR``): a browser's profile on the
    disk keeps it waiting on the disk (the site's script probe in Chromium, three runs
    each, alternated: 19 to 38 s with its files on the disk, 16 to 19 s in memory).
    (Set before the workers start: they and the commands the tests run as processes
    inherit it.)"""
    if os.environ.get("TMPDIR"):
        return
    shm = "/dev/shm"
    try:
        room = os.statvfs(shm)
    except OSError:
        return
    if (room.f_flag & (os.ST_NOEXEC | os.ST_RDONLY) or room.f_bavail * room.f_frsize < least
            or not os.access(shm, os.W_OK | os.X_OK)):
        return
    os.environ["TMPDIR"] = shm
    tempfile.tempdir = None         # (found again from TMPDIR at its next use)


def _cache_of_the_run(config) -> None:
    """The front end's cache (``RULEWRIGHT_CACHE``) in a folder of this run's own, made in
    the temporary folder and deleted at the end, unless the person running the tests
    chose one: a run starts with nothing kept, as on a fresh machine, and leaves nothing
    in the cache of the person running it (each test's specs lie in folders of their
    own, new at every run, so their entries were of no use to the next run: about 3,700
    entries, 216 MB, a run). (Set before the workers start: they and the commands the
    tests run as processes share it.)"""
    if os.environ.get("RULEWRIGHT_CACHE") or os.environ.get("PYTEST_XDIST_WORKER"):
        return
    where = tempfile.mkdtemp(prefix="rulewright-test-cache-")
    os.environ["RULEWRIGHT_CACHE"] = os.environ["RULEWRIGHT_RUN_CACHE"] = where    # (helpers.separate_cache)
    config.stash[_RUN_CACHE] = where
    from rulewright.compiler import cache
    cache.directory.cache_clear()


_RUN_CACHE = pytest.StashKey[str]()


@pytest.hookimpl(tryfirst=True)
def pytest_unconfigure(config):
    """Everything a process holds at the end of the session is kept as it is
    (``gc.freeze``): pytest's last cycle collection (made to report what finalizers raise)
    otherwise walked every object a worker had made, 6 to 7 seconds a worker at the end
    of a whole run, past the 5 seconds after which the test runner's transport interrupts
    a worker that has not ended (the ``KeyboardInterrupt`` once reported at the end), and
    the run ended 10 to 13 seconds after its last test. What finalizers raise while the
    tests run is still reported; cycles of objects left over at the end are no longer
    collected to look for it (a warning at most, never a failure). The run's own cache
    folder, when it made one, is deleted."""
    gc.freeze()
    where = config.stash.get(_RUN_CACHE, None)
    if where:
        shutil.rmtree(where, ignore_errors=True)


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem):
    """Each test function called with its frames in a block of the frame stack of their
    own (``compiler/stack.py``): under the test runner's deep stack, CPython 3.11 otherwise
    maps and frees a block on every call of some of the hot loops, and a test's speed would
    depend on how deep the runner calls it (up to 4 times slower, measured)."""
    from rulewright.compiler.stack import roomy
    args = {name: pyfuncitem.funcargs[name] for name in pyfuncitem._fixtureinfo.argnames}
    roomy(pyfuncitem.obj, **args)
    return True


@pytest.fixture(autouse=True)
def _one_cache_folder():
    """The front end's cache folder (``compiler.cache.directory``, found once per process)
    is the same for every test, whatever an earlier test set in the environment: a test
    that sets ``RULEWRIGHT_CACHE`` and finds the folder again (``cache_clear``) leaves it
    as it was, so no test turns the cache off for the tests after it."""
    from rulewright.compiler import cache
    before = cache.directory()
    yield
    if cache.directory() != before:
        cache.directory.cache_clear()


# The tests marked ``slow``, which ``make test-fast`` (``-m "not slow"``) leaves out so that the
# rest runs in about a minute; ``make test`` runs them all. Slow: the files whose tests share a
# long set-up or come in thousands (SLOW_FILES: the site built and opened in Chromium, the
# fuzzer, the 2,000 injection attempts), and the functions whose tests take about a second of
# CPU or more each on the 2-core machine (SLOW: queries that prove an optimum, whole games
# under every reading, the verify corpus...), whatever their parameters.
SLOW_FILES = {"docs/test_site_browser.py", "security/test_fuzz_inputs.py", "security/test_injection.py",
              "app/test_study_ray.py", "app/test_house_effects.py", "web/test_workbench_browser.py",
              "web/test_serve_command.py"}
SLOW = {
    "web/test_workbench_server.py": (
        "test_verify_runs_apart_with_its_progress", "test_a_long_verify_is_cancelled_at_once",
        "test_a_job_names_its_kind_and_a_draft_with_an_error_fails_located",
        "test_a_small_study_reports_its_figures_and_a_page_that_runs_no_script",
        "test_a_game_at_the_table_with_undo_save_and_load", "test_no_seat_is_sent_another_seats_hidden_cards",
        "test_a_witness_is_drawn_and_its_game_replayed"),
    "app/test_study.py": (
        "test_two_processes_play_the_same_games_as_one", "test_what_a_game_measures",
        "test_a_rule_run_only_under_the_house_rule_is_its_effect", "test_a_witness_game_replays_as_the_study_recorded_it",
        "test_the_figures_carry_99_percent_intervals", "test_stopped_and_resumed_is_the_whole_study",
        "test_the_report_runs_no_script", "test_the_command_line_study",
        "test_a_sweep_studies_each_value_against_the_reference", "test_the_api_studies_as_the_command_line",
        "test_a_share_differs_by_100_points_at_most",
        "test_the_report_opens_in_a_browser",
    ),
    "cli/test_cli.py": (
        "test_a_choice_with_nothing_to_choose_from_is_the_reason",
        "test_a_two_player_version_is_for_two_and_the_base_game_says_where_it_is",
        "test_cards_beyond_the_box_are_the_reason_a_query_has_no_answer",
        "test_check_says_a_base_error_once_for_its_variants",
        "test_command_line_mistakes_are_usage_errors_said_once", "test_ctrl_c_stops_a_query_and_says_so",
        "test_darwin_best_move_json", "test_darwin_explain_traces_rules", "test_darwin_play_with_solver_agent",
        "test_darwin_play_with_solver_agent_inputs", "test_darwin_query_mistakes_exit_2",
        "test_files_with_a_byte_order_mark_read_as_without_and_unreadable_files_say_why",
        "test_play_darwin_json_and_log", "test_query_input_is_not_taken_for_a_longer_option",
        "test_save_state_then_show", "test_small_mistakes_get_plain_messages",
    ),
    "cli/test_human_seat.py": (
        "test_a_human_seat_plays_asks_undoes_saves_and_goes_on",
        "test_the_rest_of_a_game_with_a_human_seat_is_played_by_the_others",
    ),
    "cli/test_human_play.py": (
        "test_whole_games_asking_for_a_suggestion_at_every_choice",
        "test_the_question_and_the_prompt_are_words_of_the_spec",
        "test_creation_options_show_the_new_species_worth_best_first",
        "test_a_suggestion_at_the_trade_and_the_main_action_is_a_plan_in_words",
    ),
    "docs/test_docs.py": (
        "test_a_section_of_the_spec_places_its_definitions_in_the_rulebook",
        "test_catalogue_shows_names_not_python_values",
        "test_every_house_rule_has_its_effect_measured_for_the_rules_as_they_are", "test_rules_pages_are_current",
        "test_site_builds_strictly",
    ),
    "games/darwins_choice/test_darwin_play.py": (
        "test_every_reading_keeps_the_invariants", "test_main_actions_reading",
        "test_random_games_keep_the_invariants",
    ),
    "games/darwins_choice/test_darwin_queries.py": (
        "test_a_further_action_is_never_a_second_creation",
        "test_a_further_action_of_a_per_species_turn_equals_brute_force",
        "test_a_player_who_has_passed_has_no_main_action", "test_best_create_and_best_move_equal_brute_force",
        "test_best_mutation_and_migration_equal_brute_force", "test_can_place_agrees_with_the_play_rules",
        "test_queries_equal_brute_force_under_other_readings", "test_the_benchmark_positions_offer_a_move",
    ),
    "games/darwins_choice/test_darwin_variants.py": (
        "test_best_move_on_every_version_equals_its_play_rules", "test_coop_games_keep_every_card_and_the_team_wins",
        "test_coop_with_team_actions_as_often_as_wanted_plays_to_the_end",
    ),
    "games/darwins_choice/test_readings_combine.py": (
        "test_a_zero_strength_carnivore_never_hunts", "test_each_reading_survives_every_other",
        "test_hurricane_one_dies_breaks_ties_by_strength_then_hearts", "test_meteor_strike_caps_the_plants",
        "test_even_split_keeps_its_meaning_under_skip",
    ),
    "games/darwins_choice/test_rule_numbers.py": (
        "test_hurricane_kills_the_least_adapted_below_4",
    ),
    "games/ecosystem_savanna/test_savanna_picks.py": (
        "test_a_scoring_choice_of_cells_is_shown_as_cells", "test_best_pick_equals_brute_force",
        "test_play_with_the_solver_agent_from_the_command_line", "test_solo_best_turn_equals_brute_force",
        "test_solver_agent_plays_every_pick",
    ),
    "games/test_worked_examples.py": (
        "test_every_shipped_darwin_example_holds",
    ),
    "interpret/test_speed_same_games.py": (
        "test_the_same_seeded_games_as_the_baseline",
    ),
    "package/test_layout.py": (
        "test_an_import_inside_a_function_is_a_commented_lazy_one", "test_imports_run_one_way",
        "test_no_cycle_between_modules",
    ),
    "package/test_package.py": (
        "test_the_installed_command_plays_a_game_by_name_from_anywhere",
        "test_the_wheel_carries_the_games_and_nothing_at_the_top_level",
    ),
    "play/test_checks.py": (
        "test_a_bad_own_table_is_a_bad_input_file_exit_2",
        "test_a_quote_never_closed_in_a_table_file_is_located_at_its_row",
        "test_own_biome_table_against_the_food_chips", "test_play_with_own_catalogue",
        "test_settings_a_game_runs_out_with_are_refused_before_play",
        "test_settings_from_the_command_line_that_break_the_spec_are_usage_errors",
        "test_own_catalogue_row_mistakes",
    ),
    "play/test_invariants.py": (
        "test_games_of_every_spec_and_mode_keep_the_invariants", "test_games_under_per_species_keep_the_invariants",
    ),
    "play/test_views.py": (
        "test_a_determinization_keeps_the_view_of_its_seat", "test_unseen_cards_are_spread_as_chance_says",
        "test_what_a_seat_knows_is_always_true", "test_shown_cards_are_known_to_the_team_mate_only",
        "test_positions_with_one_view_give_a_seat_one_determinization",
        "test_the_solver_seat_chooses_the_same_on_positions_with_one_view",
        "test_a_view_as_text_and_json_from_the_command_line",
        "test_a_spec_that_hides_nothing_shows_everything_and_check_says_so_once",
    ),
    "verify/test_secrecy.py": (
        "test_options_made_again_on_a_determinization_show_a_leak",
        "test_the_shipped_games_give_a_seat_the_same_options_on_what_it_cannot_tell_apart",
        "test_the_command_line_reports_a_leak_with_its_chain_and_exits_1",
    ),
    "play/test_resume.py": (
        "test_a_log_read_back_replays_the_game", "test_a_position_that_breaks_a_warned_invariant_is_played_on",
        "test_a_saved_game_goes_on_exactly_as_it_would_have", "test_play_from_on_the_command_line_and_until",
        "test_simulate_from_a_position", "test_the_log_of_a_game_played_on_from_a_position_replays_it",
    ),
    "play/test_simulate.py": (
        "test_every_shipped_mode_is_summed_up", "test_the_intervals_hold_the_true_mean_95_times_in_100",
        "test_the_solver_seats_say_what_they_did",
        "test_the_differences_of_a_house_rule_are_those_of_its_games_seed_by_seed",
    ),
    "play/test_state_io.py": (
        "test_a_negative_darwin_point_stock_or_banked_points_are_refused",
        "test_a_table_path_written_relative_is_relative_to_the_state_file",
        "test_settings_variants_and_tables_of_a_position_are_the_files_mistakes",
        "test_more_position_mistakes_found_by_a_sweep",
    ),
    "security/test_pages_run_no_script.py": (
        "test_the_attacks_show_as_text", "test_the_pages_hold_nothing_that_runs",
        "test_the_probe_reaches_every_kind_of_page", "test_the_probe_site_fires_no_dialog_in_a_browser",
    ),
    "security/test_terminal.py": (
        "test_no_escape_reaches_a_real_terminal", "test_the_progress_bar_draws_and_the_spec_does_not",
    ),
    "security/test_untrusted.py": (
        "test_a_card_table_of_thousands_of_bad_rows_is_refused_quickly",
        "test_a_query_time_limit_covers_building_the_model",
        "test_a_runaway_evaluation_stops_with_its_definition_named",
        "test_a_state_file_names_files_only_inside_the_allowed_folders",
        "test_a_variant_extends_only_inside_the_allowed_folders",
    ),
    "security/test_untrusted_round2.py": (
        "test_a_query_time_limit_covers_explaining_an_infeasible_answer",
        "test_a_random_state_python_refuses_is_a_located_error",
        "test_a_saved_position_without_its_checkpoint_counts_goes_on",
        "test_definitions_nesting_a_value_deeper_and_deeper_are_one_error",
        "test_folded_constants_stay_within_the_limits_of_values",
        "test_the_position_a_saved_game_began_from_may_leave_its_counts_out",
        "test_verify_time_limit_bounds_the_games_it_plays",
    ),
    "semantics/test_language_gaps.py": (
        "test_a_definition_called_again_with_the_same_arguments_is_encoded_once",
    ),
    "solver/test_encoder.py": (
        "test_agreement_on_predator_heavy_grids", "test_agreement_under_every_reading",
        "test_allocate_encoding_agrees_with_runtime", "test_allocation_aggregates_agree_through_a_query",
        "test_solver_scores_like_the_interpreter",
    ),
    "solver/test_fuzz_queries.py": (
        "test_nested_sums_over_a_chosen_herd_are_proven_optimal",
        "test_the_solver_finds_the_best_option_of_a_random_query",
    ),
    "solver/test_solver.py": (
        "test_best_arrangement_equals_brute_force_on_2x3", "test_best_placement_keeps_the_partial_grid",
        "test_full_grid_answer_and_bound_are_never_beaten", "test_two_numbers_chosen_are_not_shown_as_a_grid_cell",
    ),
    "solver/test_solver_agent.py": (
        "test_darwin_solver_agent_plays_every_action_of_a_per_species_turn",
        "test_darwin_solver_agent_trades_when_allowed",
    ),
    "variants/test_corpus.py": (
        "test_variant_compiles_and_plays",
    ),
    "variants/test_house_rules.py": (
        "test_house_rule_loads_as_a_variant", "test_no_degeneration_leaves_the_card_in_the_box",
        "test_no_strength_award_gives_no_points_for_strength", "test_one_direction_passes_left_in_both_rounds",
        "test_one_migration_per_species", "test_the_house_rules_of_a_game_combine_without_conflict",
        "test_flood_spares_diggers",
    ),
    "variants/test_variants.py": (
        "test_a_row_removed_and_changed_by_unrelated_variants_conflicts_and_checks_note_the_removal",
        "test_a_state_of_a_variant_queried_through_the_base_spec",
        "test_a_step_added_at_the_end_of_a_mode_comes_before_its_reports", "test_base_names_the_replaced_definition",
        "test_cli_state_remembers_its_variant_and_query_applies_it",
        "test_setting_what_no_rule_reads_is_an_error_and_check_warns", "test_switch_default_override_keeps_options",
        "test_unordered_variants_conflict",
        "test_override_param_changes_play",
        "test_cli_play_with_variant_flag_and_path",
        "test_a_row_removal_that_cannot_be_is_located",
    ),
    "verify/test_verify.py": (
        "test_a_choice_with_no_option_and_a_game_that_never_ends",
        "test_no_ecosystem_below_zero_is_refuted_under_the_default_reading",
    ),
    "verify/test_soundness.py": (
        "test_never_and_always_holds_agree_with_every_input",
        "test_ranges_are_the_least_and_most_of_every_input",
        "test_properties_proved_hold_on_every_input_and_counterexamples_break_them",
        "test_differs_same_means_equal_everywhere_and_a_difference_is_real",
    ),
    "verify/test_verify_corpus.py": (
        "test_seeded_bug_is_found",
    ),
    "app/test_api_jobs.py": (
        "test_seats_played_by_the_solver_give_the_games_of_the_command",
        "test_a_game_an_answer_and_a_finding_draw_themselves",
        "test_diff_gives_the_changes_of_the_command",
    ),
    "play/test_playthrough.py": (
        "test_playthrough_replays_step_by_step",
    ),
    "play/test_bots.py": (
        "test_the_tournament_command_rates_the_bots_and_writes_json",
        "test_greedy_playouts_play_the_same_game_again",
    ),
    "variants/test_extends_by_name.py": (
        "test_a_house_rule_or_a_version_is_named_with_or_without_rules",
    ),
    "cli/test_json_schemas.py": (
        "test_json_output_has_the_documented_keys_and_types",
    ),
    "interpret/test_live.py": (
        "test_a_copy_goes_on_as_the_original_and_apart_from_it",
    ),
    "cli/test_tables.py": (
        "test_in_a_pipe_no_line_is_wider_than_the_columns_and_nothing_escapes",
    ),
}


def pytest_collection_modifyitems(config, items):
    here = Path(__file__).parent
    for item in items:
        try:
            where = item.path.relative_to(here).as_posix()
        except ValueError:
            continue
        if where in SLOW_FILES or getattr(item, "originalname", item.name) in SLOW.get(where, ()):
            item.add_marker(pytest.mark.slow)



class _GroupIds:
    """``--dist loadgroup`` sends the tests of one ``xdist_group`` to one worker by adding
    ``@GROUP`` to their node IDs in the worker; pytest-xdist 3.8 sets the old ``_nodeid``,
    which pytest 9.2's structured IDs no longer read (pytest-xdist issue 1386), so the
    groups were not kept: the site was built on both workers. Here the suffix is added
    as xdist adds it, after xdist's own hook, where it is not there already."""

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, config, items):
        if not getattr(config.option, "loadgroup", False):
            return
        try:
            from _pytest.nodeid import NodeId
        except ImportError:         # an older pytest: xdist's own suffix holds
            return
        for item in items:
            names = sorted({str(m.args[0] if m.args else m.kwargs.get("name", "default"))
                            for m in item.iter_markers("xdist_group")})
            suffix = "@" + "_".join(names)
            if names and not item.nodeid.endswith(suffix):
                item._id = NodeId.parse(item.nodeid + suffix)


@pytest.fixture
def update_golden(request):
    return request.config.getoption("--update-golden")


@pytest.fixture(scope="session")
def program():
    return savanna()[0]


@pytest.fixture(scope="session")
def interp():
    return savanna()[1]


@pytest.fixture(scope="session")
def built_site(tmp_path_factory):
    """``mkdocs build --strict`` of the docs, once for every test that reads the site:
    (the folder built, the completed process); skipped without mkdocs."""
    mkdocs = shutil.which("mkdocs") or str(Path(sys.executable).parent / "mkdocs")
    if not Path(mkdocs).exists():
        pytest.skip("mkdocs not installed")
    out = tmp_path_factory.mktemp("site")
    proc = subprocess.run([mkdocs, "build", "--strict", "-q", "-d", str(out)], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    return out, proc
