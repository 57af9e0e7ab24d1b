"""Unit tests of the bench tools on a synthetic result file (never a
measurement: its GPU is 'TEST FIXTURE', it is marked "fixture", and the
handout checker refuses such a file in handouts/results).

    python3 -m unittest discover -s grader/bench/tests
"""
import contextlib
import io
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import bench  # noqa: E402
import compare_runs  # noqa: E402
import handout_numbers  # noqa: E402
import results_file  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))


def result(lab, problem, size, x, kernel, role, ms, speedup=None, unit="GFLOP/s", work=1e9):
    r = {"lab": lab, "problem": problem, "size": size, "x": x, "work": work, "unit": unit,
         "kernel": kernel, "label": f"{kernel} label", "role": role, "baseline": "base",
         "ceiling": "top", "median_ms": ms, "min_ms": ms * 0.99, "max_ms": ms * 1.01,
         "runs": 11, "rate": work / (ms * 1e6), "verified": True if role != "ceiling" else None}
    if speedup is not None:
        r["speedup"] = speedup
    return r


def fixture():
    """Round numbers, so the expected quotes are easy to see."""
    bench = results_file.empty()
    bench.update({"fixture": True, "gpu": {"name": "NVIDIA TESTGPU 1GB", "driver": "1.0"},
                  "device": {"cuda_runtime": 13000}, "date": "2000-01-01", "seed": 1,
                  "runs": 11, "implementation": "synthetic"})
    rows = []
    for size, x in (("1024", 1024), ("2048", 2048)):
        rows += [result(2, "matmul", size, x, "naive", "kernel", 2.0, speedup=10.0),
                 result(2, "matmul", size, x, "uncoalesced", "baseline", 20.0, speedup=1.0),
                 result(2, "matmul", size, x, "cublas", "ceiling", 0.5)]
    bench["labs"]["2"] = {"results": rows, "notes": []}
    sizes = [result(7, "matmul", str(s), s, k, role, ms)
             for s in (256, 512) for k, role, ms in (("warp_tile", "kernel", 1.0),
                                                     ("shared_tiles", "baseline", 4.0),
                                                     ("cublas", "ceiling", 0.9))]
    bench["labs"]["7"] = {"results": sizes, "notes": []}
    bench["labs"]["6"] = {"results": [
        result(6, "pipeline", "2^24", 2 ** 24, "streamed", "kernel", 5.0, 2.0, "GB/s"),
        result(6, "pipeline", "2^24", 2 ** 24, "serial", "baseline", 10.0, 1.0, "GB/s")],
        "notes": [], "timeline": [
            {"run": "serial", "stream": 0, "stage": "H2D", "start_us": 0, "end_us": 10},
            {"run": "streamed", "stream": 1, "stage": "kernel", "start_us": 2, "end_us": 6}]}
    results_file.finish(bench)
    return bench


class Checker(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.results = os.path.join(self.tmp.name, "results")
        os.makedirs(self.results)
        results_file.save(fixture(), os.path.join(self.results, "bench-testgpu-1gb.json"))
        self.rubrics = {"LAB2_SPEEDUP_OVER_UNCOALESCED_MIN": 6.0}
        handout_numbers.PRIMARY_GPU = "testgpu"

    def tearDown(self):
        self.tmp.cleanup()
        handout_numbers.PRIMARY_GPU = "h100"

    def run_on(self, text, write=False, allow_fixtures=True):
        results = handout_numbers.Results(self.results, allow_fixtures=allow_fixtures)
        return handout_numbers.process(os.path.join(REPO, "handouts", "x.md"), text, results,
                                       self.rubrics, write)

    def test_threshold_that_agrees_passes(self):
        _, problems, _ = self.run_on(
            "at least <!-- rubric: LAB2_SPEEDUP_OVER_UNCOALESCED_MIN -->6<!-- /rubric -->x\n")
        self.assertEqual(problems, [])

    def test_threshold_that_disagrees_fails_naming_line_and_values(self):
        _, problems, _ = self.run_on(
            "one\nat least <!-- rubric: LAB2_SPEEDUP_OVER_UNCOALESCED_MIN -->4.0<!-- /rubric -->\n")
        self.assertEqual(len(problems), 1)
        self.assertIn("handouts/x.md:2", problems[0])
        self.assertIn("'4.0'", problems[0])
        self.assertIn("6", problems[0])

    def test_unknown_threshold_fails(self):
        _, problems, _ = self.run_on("<!-- rubric: LAB9_NOPE -->1<!-- /rubric -->")
        self.assertEqual(len(problems), 1)

    def test_bench_number_rounding_rule(self):
        ok = "<!-- bench: lab2.matmul.2048.naive.tflops -->0.50<!-- /bench -->"  # 1e9/2ms
        _, problems, _ = self.run_on(ok)
        self.assertEqual(problems, [])
        _, problems, _ = self.run_on(ok.replace("0.50", "0.5"))
        self.assertEqual(problems, [])
        _, problems, _ = self.run_on(ok.replace("0.50", "0.6"))
        self.assertEqual(len(problems), 1)
        self.assertIn("gives 0.5", problems[0])

    def test_expressions_and_words(self):
        text = ("<!-- bench: gpu -->TESTGPU<!-- /bench --> "
                "<!-- bench: lab2.matmul.2048.naive.speedup -->10.0<!-- /bench --> "
                "<!-- bench: 100 * lab2.matmul.2048.cublas.median_ms / "
                "lab2.matmul.2048.naive.median_ms -->25<!-- /bench -->")
        _, problems, _ = self.run_on(text)
        self.assertEqual(problems, [])

    def test_unknown_quantity_fails(self):
        _, problems, _ = self.run_on("<!-- bench: lab2.matmul.999.naive.tflops -->1<!-- /bench -->")
        self.assertEqual(len(problems), 1)
        self.assertIn("no result", problems[0])

    def test_write_then_check_agrees(self):
        text = ("<!-- bench: lab2.matmul.2048.naive.median_ms -->9.999<!-- /bench -->\n"
                "<!-- rubric: LAB2_SPEEDUP_OVER_UNCOALESCED_MIN -->4.0<!-- /rubric -->\n"
                "<!-- bench-results: lab2 -->\nstale\n<!-- /bench-results -->\n")
        new, _, _ = self.run_on(text, write=True)
        self.assertIn("-->2.000<!--", new)
        self.assertIn("-->6.0<!--", new)
        self.assertIn("| naive label |", new)
        _, problems, _ = self.run_on(new)
        self.assertEqual(problems, [])
        _, problems, _ = self.run_on(text)
        self.assertEqual(len(problems), 3)

    def test_readme_summary_is_generated(self):
        text = "<!-- bench-summary -->\nold\n<!-- /bench-summary -->\n"
        new, _, _ = self.run_on(text, write=True)
        self.assertIn("| 2 | naive label | 2048 |", new)
        self.assertIn("LAB2_SPEEDUP_OVER_UNCOALESCED_MIN = 6", new)
        _, problems, _ = self.run_on(new)
        self.assertEqual(problems, [])

    def test_fixture_is_refused_as_a_measurement(self):
        _, problems, _ = self.run_on("<!-- bench: gpu -->TESTGPU<!-- /bench -->",
                                     allow_fixtures=False)
        self.assertEqual(len(problems), 1)
        self.assertIn("not a measurement", problems[0])

    def test_missing_results_are_pending_and_blocks_say_so(self):
        handout_numbers.PRIMARY_GPU = "nosuchgpu"
        text = ("<!-- bench: gpu -->X<!-- /bench -->\n"
                "<!-- bench-results: lab2 -->\n<!-- /bench-results -->\n")
        new, problems, pending = self.run_on(text, write=True)
        self.assertEqual(pending, 1)
        self.assertIn("Not measured yet", new)
        _, problems, _ = self.run_on(new)
        self.assertEqual(problems, [])

    def test_logged_numbers_from_a_session_log(self):
        with open(os.path.join(self.results, "session.txt"), "w") as f:
            f.write("kernel      ends with     ms    GB/s\n"
                    "(a) slow    atomic        1.5   347\n"
                    "(b) fast    atomic        1.0   524\n"
                    "(a) slow    no   atomic   1.4   361\n"
                    "(b) fast    no atomic     0.6   839\n"
                    "no atomic:\n  (b)/(a)  what it costs   2.324 (2.322 .. 2.327)\n")
        ok = ("<!-- result: [session.txt > no atomic: > (b)/(a)] -->2.32<!-- /result --> "
              "<!-- result: [session.txt > (b) fast & no atomic #2] / "
              "[session.txt > (a) slow & no atomic #2] -->2.32<!-- /result --> "
              "<!-- result: [session.txt > (a) slow #2] -->347<!-- /result -->")
        _, problems, _ = self.run_on(ok)
        self.assertEqual(problems, [])
        _, problems, _ = self.run_on(ok.replace("-->347<!--", "-->361<!--"))
        self.assertEqual(len(problems), 1)
        self.assertIn("gives 347", problems[0])
        new, _, _ = self.run_on(ok.replace("-->347<!--", "-->361<!--"), write=True)
        self.assertEqual(new, ok)
        for bad in ("[session.txt > nowhere]", "[../session.txt > (a)]", "[nofile.txt > x]",
                    "[session.txt > (b)/(a) #9]"):
            _, problems, _ = self.run_on(f"<!-- result: {bad} -->1<!-- /result -->")
            self.assertEqual(len(problems), 1, bad)

    def test_rubrics_are_read_from_the_graders(self):
        rubrics = handout_numbers.read_rubrics(REPO)
        self.assertEqual(rubrics["LAB2_SPEEDUP_OVER_UNCOALESCED_MIN"], 6.0)
        self.assertEqual(rubrics["LAB6_SPEED_N"], 1 << 26)


class Plots(unittest.TestCase):
    def test_every_figure_as_png_and_svg(self):
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            self.skipTest("matplotlib is not installed")
        import plots
        other = fixture()
        other["gpu"]["name"] = "NVIDIA OTHERGPU"
        with tempfile.TemporaryDirectory() as out:
            written = plots.draw_all([fixture(), other], out)
            names = sorted(os.path.basename(p) for p in written)
        for stem in ("lab2-testgpu-1gb", "lab7-sizes-testgpu-1gb", "lab6-timeline-testgpu-1gb",
                     "lab2-compare", "lab7-sizes-compare"):
            self.assertIn(stem + ".png", names)
            self.assertIn(stem + ".svg", names)


class ResultFile(unittest.TestCase):
    def test_slug_and_short_name(self):
        self.assertEqual(results_file.slug("NVIDIA H100 80GB HBM3"), "h100-80gb-hbm3")
        self.assertEqual(results_file.short_name("NVIDIA H200"), "H200")

    def test_finish_adds_share_of_ceiling_and_ceilings(self):
        bench = fixture()
        naive = [r for r in results_file.results(bench, 2) if r["kernel"] == "naive"][0]
        self.assertAlmostEqual(naive["pct_of_ceiling"], 25.0)
        self.assertIn("cublas_fp32", bench["ceilings"])
        self.assertEqual(bench["cuda"], "13.0")

    def test_summary_table_lists_every_result(self):
        bench = fixture()
        table = results_file.summary_table(bench)
        self.assertEqual(len(table.splitlines()), 2 + len(list(results_file.results(bench))))


class BenchPrograms(unittest.TestCase):
    def test_labs_are_the_built_drivers_the_references_first(self):
        with tempfile.TemporaryDirectory() as tmp:
            for name in ("lab2_kernels", "lab2_kernels_solution", "lab10_kernels",
                         "lab3_check_solution", "lab4_kernels.args", "bench_lab5"):
                open(os.path.join(tmp, name), "w").close()
            found = bench.bench_programs(tmp)
            self.assertEqual(sorted(found), [2, 10])
            self.assertEqual(os.path.basename(found[2]), "lab2_kernels_solution")
            self.assertEqual(os.path.basename(found[10]), "lab10_kernels")

    def test_no_folder_no_labs(self):
        self.assertEqual(bench.bench_programs("/nonexistent/bin"), {})


class CompareRuns(unittest.TestCase):
    """compare_runs: two bench files of one GPU, the issue's repeatability
    and ceiling rules."""

    def row(self, bench, lab, kernel, size="2048"):
        return next(r for r in results_file.results(bench, lab)
                    if r["kernel"] == kernel and r["size"] == size)

    def test_identical_runs_agree(self):
        report = compare_runs.compare(fixture(), fixture())
        self.assertEqual(report["problems"], [])
        # Lab 2's six rows and lab 7's rows of 0.9 ms or more; lab 6 is PCIe-bound.
        self.assertEqual(report["held"], 12)
        self.assertEqual(report["skipped"], 2)

    def test_a_long_row_more_than_3_percent_apart_is_named(self):
        second = fixture()
        self.row(second, 2, "naive")["median_ms"] = 2.0 * 1.05
        problems = compare_runs.compare(fixture(), second)["problems"]
        self.assertEqual(len(problems), 1)
        self.assertIn("lab 2 matmul 2048 naive (kernel)", problems[0])
        self.assertIn("4.8% apart", problems[0])

    def test_short_and_pcie_rows_are_not_held_to_the_rule(self):
        first, second = fixture(), fixture()
        for bench, ms in ((first, 0.05), (second, 0.08)):
            self.row(bench, 7, "warp_tile", "256")["median_ms"] = ms
        self.row(second, 6, "streamed", "2^24")["median_ms"] = 5.0 * 1.2
        self.assertEqual(compare_runs.compare(first, second)["problems"], [])

    def test_a_row_above_its_ceiling_is_named(self):
        second = fixture()
        self.row(second, 2, "naive")["pct_of_ceiling"] = 100.8
        problems = compare_runs.compare(fixture(), second)["problems"]
        self.assertEqual(problems, ["second run: lab 2 matmul 2048 naive (kernel) at 100.8% "
                                    "of its ceiling"])

    def test_no_share_above_a_ceiling_under_0_1_ms(self):
        bench = fixture()
        self.row(bench, 7, "cublas", "256")["median_ms"] = 0.018
        self.row(bench, 7, "warp_tile", "256")["median_ms"] = 0.0175
        self.row(bench, 7, "cublas", "512")["median_ms"] = 0.09
        results_file.finish(bench)
        self.assertNotIn("pct_of_ceiling", self.row(bench, 7, "warp_tile", "256"))
        # Slower than a short ceiling, a row keeps its share: 0.09 ms of 1.0.
        self.assertAlmostEqual(self.row(bench, 7, "warp_tile", "512")["pct_of_ceiling"], 9.0)
        # A file of the old rule keeps a share above 100% there: not listed.
        self.row(bench, 7, "warp_tile", "256")["pct_of_ceiling"] = 102.9
        self.assertEqual(compare_runs.compare(fixture(), bench)["problems"], [])

    def test_no_share_above_a_ceiling_over_pcie(self):
        # Lab 6's pipeline 0.9% faster than its longest stage alone (a PCIe
        # copy, 5.8 ms): the runner marks that ceiling "limit": false.
        bench = fixture()
        rows = bench["labs"]["6"]["results"]
        rows.append(result(6, "pipeline", "2^24", 2 ** 24, "longest_stage", "ceiling", 5.05,
                           unit="GB/s"))
        rows[-1]["limit"] = False
        results_file.finish(bench)
        self.assertNotIn("pct_of_ceiling", self.row(bench, 6, "streamed", "2^24"))
        self.assertEqual(compare_runs.compare(bench, bench)["problems"], [])
        # The runner's word counts over the time: a long ceiling it calls a
        # limit holds, a long one it calls none does not.
        self.assertFalse(results_file.is_limit(rows[-1]))
        rows[-1]["limit"] = True
        results_file.finish(bench)
        self.assertAlmostEqual(self.row(bench, 6, "streamed", "2^24")["pct_of_ceiling"], 101.0)
        self.assertIn("at 101.0% of its ceiling", compare_runs.compare(bench, bench)["problems"][0])

    def test_missing_rows_and_another_gpu_are_named(self):
        second = fixture()
        second["gpu"]["name"] = "NVIDIA OTHER"
        second["labs"]["7"]["results"].pop()
        problems = compare_runs.compare(fixture(), second)["problems"]
        self.assertEqual(problems[0], "different GPUs: NVIDIA TESTGPU 1GB and NVIDIA OTHER")
        self.assertIn("lab 7 matmul 512 cublas (ceiling) only in the first run", problems[1])

    def test_exit_status_says_whether_the_runs_agree(self):
        with tempfile.TemporaryDirectory() as tmp:
            paths = [os.path.join(tmp, f"{n}.json") for n in ("a", "b", "c")]
            results_file.save(fixture(), paths[0])
            results_file.save(fixture(), paths[1])
            slower = fixture()
            self.row(slower, 2, "uncoalesced")["median_ms"] = 30.0
            results_file.save(slower, paths[2])
            said = io.StringIO()
            with contextlib.redirect_stdout(said), contextlib.redirect_stderr(said):
                self.assertEqual(compare_runs.main(paths[:2]), 0)
                self.assertEqual(compare_runs.main([paths[0], paths[2]]), 1)
                self.assertEqual(compare_runs.main([paths[0], os.path.join(tmp, "none.json")]), 2)
            self.assertIn("33.3% apart", said.getvalue())


if __name__ == "__main__":
    unittest.main()
