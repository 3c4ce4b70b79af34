"""Tests of the dtb package over the golden tables (testdata/golden).

Run from go test (TestPython in capi/, which builds libdtb.so and passes
the Go probe's answers, and TestPythonInstall, which runs them against
the installed package: scripts/python-install-test.sh), or by hand from
this directory:

    go build -buildmode=c-shared -o /tmp/libdtb.so ../capi
    DTB_LIBRARY=/tmp/libdtb.so python3 -m unittest test_dtb

Environment: DTB_LIBRARY (see dtb/__init__.py), DTB_TEST_TABLES (default
../testdata/golden), DTB_TEST_EXPECT (a JSON file of the Go probe's
answers, which capi's TestPython writes; the test that reads it skips
without it).
"""

import json
import os
import shutil
import tempfile
import threading
import unittest

import dtb

HERE = os.path.dirname(os.path.abspath(__file__))
TABLES = os.environ.get("DTB_TEST_TABLES") or os.path.join(HERE, "..", "testdata", "golden")


def split_tables(tmp, first):
    """Copies TABLES to two directories under tmp: the tables whose
    material first accepts, and the others. Returns both."""
    with open(os.path.join(TABLES, "MANIFEST.json")) as f:
        manifest = json.load(f)
    dirs = []
    for keep in (first, lambda m: not first(m)):
        d = os.path.join(tmp, str(len(dirs)))
        os.mkdir(d)
        kept = [e for e in manifest["tables"] if keep(e["material"])]
        for e in kept:
            for name in [e["file"]] + ([e["distances"]["file"]] if e.get("distances") else []):
                shutil.copy(os.path.join(TABLES, name), d)
        with open(os.path.join(d, "MANIFEST.json"), "w") as f:
            json.dump(dict(manifest, tables=kept), f)
        dirs.append(d)
    return dirs


def c_result(p):
    """The C library's numbers of a Probe, which are Go's: rules, theory,
    category, distance, dtw, mtc."""
    def n(d):
        return -1 if d is None else d
    return [int(p.value), int(p.theory), int(p.wdl), n(p.distance), n(p.dtw), n(p.mtc)]


def answer(tb, fen, class_played=0, rule2_played=0):
    """The probe and the root moves of fen, or the failures, as comparable values."""
    try:
        r = ("ok", tb.probe(fen, class_played=class_played, rule2_played=rule2_played))
    except dtb.DtbError as e:
        r = (type(e).__name__, e.status, str(e))
    try:
        m = ("ok", tb.root_moves(fen, class_played=class_played, rule2_played=rule2_played))
    except dtb.DtbError as e:
        m = (type(e).__name__, e.status, str(e))
    return r, m


class TestProbe(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tb = dtb.open_tablebase(TABLES)

    @classmethod
    def tearDownClass(cls):
        cls.tb.close()

    def test_known(self):
        # The values of the README and of cmd/dtb's TestProbeCommand.
        r = self.tb.probe("W:WK10:BK5")
        self.assertEqual((r.value, r.theory, r.category, r.wdl), (dtb.Value.WIN, dtb.Value.WIN, "win", 2))
        self.assertEqual((r.distance, r.dtw, r.mtc), (3, 3, None))
        r = self.tb.probe("W:WK2:BK26")
        self.assertEqual((r.category, r.distance, r.dtw), ("draw", None, None))
        r = self.tb.probe("W:W28:B23,K45")
        self.assertEqual((r.value, r.category, r.distance, r.dtw), (dtb.Value.LOSS, "loss", None, 6))
        r = self.tb.probe("B:WK10:B")
        self.assertEqual((r.category, r.distance, r.dtw, r.mtc), ("loss", 0, 0, 0))

    def test_numbers(self):
        """Value and Category have python-chess's numbers, which are the C
        library's and Go's; a category's word is its name in the JSON."""
        self.assertEqual([int(v) for v in dtb.Value], [-1, 0, 1])
        self.assertEqual([(int(c), str(c)) for c in dtb.Category],
                         [(-2, "loss"), (-1, "blessed-loss"), (0, "draw"), (1, "cursed-win"), (2, "win")])
        r = self.tb.probe("W:WK2,6:BK50", class_played=2)
        self.assertEqual((r.value, r.theory, r.wdl, r.category),
                         (dtb.Value.DRAW, dtb.Value.WIN, dtb.Category.CURSED_WIN, "cursed-win"))
        self.assertIs(type(self.tb.probe_wdl("W:WK10:BK5")), dtb.Category)

    def test_clocks(self):
        # W:WK2,6:BK50 wins in 9 plies of the class B clock of 10: with 1
        # played, not 2 (a cursed win).
        for played, category, wdl in [(0, "win", 2), (1, "win", 2), (2, "cursed-win", 1), (10, "cursed-win", 1)]:
            r = self.tb.probe("W:WK2,6:BK50", class_played=played)
            self.assertEqual((r.category, r.wdl, r.distance, r.dtw), (category, wdl, 9, 9), played)
            self.assertEqual(self.tb.probe_wdl("W:WK2,6:BK50", class_played=played), wdl)
        self.assertEqual(self.tb.probe_wdl("W:WK2,6:BK50", rule2_played=49), 2)  # rule 2 ignored in class B

    def test_huge_clocks(self):
        # A count at or above the budget is a clock run out, however large
        # (not cut to a C int: 2**32 once read as 0); a negative one is 0.
        for played in (10, 2**31, 2**32, 2**32 + 1, 2**64):
            self.assertEqual(self.tb.probe_wdl("W:WK2,6:BK50", class_played=played), 1, played)
            self.assertEqual(self.tb.best_move("W:WK2,6:BK50", class_played=played).result.wdl, 1, played)
        for played in (-1, -2**31 - 1, -2**32 + 10, -2**64):
            self.assertEqual(self.tb.probe_wdl("W:WK2,6:BK50", class_played=played), 2, played)
        c = dtb._clocks(-2**32 + 10, 2**32)
        self.assertEqual((c.class_played, c.rule2_played), (0, 2**31 - 1))

    def test_clock_types(self):
        for bad in (10.0, "10", None):
            for clock in ("class_played", "rule2_played"):
                for call in (self.tb.probe, self.tb.probe_wdl, self.tb.get_wdl, self.tb.root_moves):
                    with self.assertRaisesRegex(TypeError, "^dtb: %s must be an int, not " % clock):
                        call("W:WK2,6:BK50", **{clock: bad})

    def test_moves(self):
        moves = self.tb.root_moves("W:WK2,6:BK50")
        self.assertEqual(len(moves), 10)
        self.assertEqual([m.notation for m in moves[:2]], ["2-11", "6-1"])
        self.assertEqual((moves[0].from_square, moves[0].to_square, moves[0].captured), (2, 11, ()))
        self.assertEqual((moves[0].result.category, moves[0].result.distance), ("win", 9))
        best = self.tb.best_move("W:WK2,6:BK50", class_played=2)
        self.assertEqual((best.notation, best.result.category), ("2-11", "cursed-win"))
        best = self.tb.best_move("W:W28:BK23")
        self.assertEqual((best.notation, best.captured, best.result.dtw, best.result.mtc), ("28x19", (23,), 1, 1))
        self.assertEqual(self.tb.root_moves("B:WK10:B"), [])
        self.assertIsNone(self.tb.best_move("B:WK10:B"))

    def test_bad_fen(self):
        with self.assertRaises(dtb.IllegalPositionError) as cm:
            self.tb.probe("W:WK10:BK55")
        e = cm.exception
        self.assertIsInstance(e, ValueError)
        self.assertEqual(e.status, -3)
        self.assertEqual(str(e), 'dtb: not a legal position: FEN "W:WK10:BK55": square 55 out of range 1..50 at column 10')
        for call in (self.tb.probe_wdl, self.tb.get_wdl, self.tb.root_moves, self.tb.best_move):
            with self.assertRaises(dtb.IllegalPositionError):
                call("W:WK10:BK55")
        with self.assertRaises(dtb.IllegalPositionError):
            self.tb.probe("W:WK10\0:BK5")
        with self.assertRaises(TypeError):
            self.tb.probe(b"W:WK10:BK5")

    def test_missing_table(self):
        with self.assertRaises(dtb.MissingTableError) as cm:
            self.tb.probe("W:WK1,K2:BK40,K45")
        self.assertIsInstance(cm.exception, KeyError)
        self.assertEqual(str(cm.exception), "no table for KKvKK")
        self.assertIsNone(self.tb.get_wdl("W:WK1,K2:BK40,K45"))
        self.assertEqual(self.tb.get_wdl("W:WK1,K2:BK40,K45", "unknown"), "unknown")
        self.assertEqual(self.tb.get_wdl("W:WK10:BK5", "unknown"), 2)

    def test_max_pieces(self):
        self.assertEqual(self.tb.max_pieces, 3)

    @unittest.skipUnless(os.environ.get("DTB_TEST_EXPECT"), "DTB_TEST_EXPECT not set: run go test ./capi")
    def test_go_probe(self):
        with open(os.environ["DTB_TEST_EXPECT"]) as f:
            expectations = json.load(f)
        failures, categories = 0, set()
        for e in expectations:
            fen, clocks = e["fen"], dict(class_played=e["class_played"], rule2_played=e["rule2_played"])
            r, m = answer(self.tb, fen, **clocks)
            if e["status"] < 0:
                got = r[1:]
                want = (e["status"], e["message"])
                failures += e["status"] == -3
            else:
                got = c_result(r[1]) if r[0] == "ok" else r
                want = e["result"]
                categories.add(want[2])
            self.assertEqual(got, want, "probe %s %s" % (fen, clocks))
            if e["move_status"] < 0:
                got, want = m[1:], (e["move_status"], e["move_message"])
            else:
                self.assertEqual(m[0], "ok", "root moves %s %s: %s" % (fen, clocks, m))
                got = [[x.notation, x.from_square, x.to_square, sum(1 << (s - 1) for s in x.captured)]
                       + c_result(x.result) for x in m[1]]
                want = e["moves"]
            self.assertEqual(got, want, "root moves %s %s" % (fen, clocks))
        self.assertGreater(len(expectations), 1000)
        self.assertGreater(failures, 3)
        self.assertEqual(categories, {-2, -1, 0, 1, 2})  # every category, in the same numbers


class TestThreads(unittest.TestCase):
    def test_two_threads(self):
        # KvK, KKvK and KMvK positions, bad FENs and a missing table among
        # them, from two threads at once: the same answers as one thread.
        fens = ["W:WK%d:BK%d" % (a, b) for a in range(1, 51, 3) for b in range(1, 51, 7) if a != b]
        fens += ["B:WK%d,K%d:BK%d" % (a, a + 5, b) for a in range(1, 46, 4) for b in range(1, 51, 6)]
        fens += ["W:W%d,K%d:BK%d" % (a, b, 50 - a) for a in range(6, 45, 5) for b in range(1, 51, 9)]
        fens += ["W:WK10:BK55", "W:WK1,K2:BK40,K45", "W:WK10,K10:BK5", ""]
        jobs = [(fen, played) for played in (0, 2, 9) for fen in fens]
        with dtb.open_tablebase(TABLES) as tb:
            want = [answer(tb, fen, played) for fen, played in jobs]
            got = [None, None]

            def run(k):
                order = jobs if k == 0 else jobs[::-1]
                got[k] = {job: answer(tb, *job) for job in order}
            threads = [threading.Thread(target=run, args=(k,)) for k in range(2)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        self.assertGreater(len(jobs), 500)
        for k in range(2):
            self.assertEqual([got[k][job] for job in jobs], want, "thread %d" % k)

    def test_close_while_probing(self):
        # Probes running while another thread closes end before it, and
        # those after it raise: no crash, no probe of a closed handle.
        tb = dtb.open_tablebase(TABLES)
        errors = []

        def run():
            for i in range(2000):
                try:
                    tb.probe("W:WK%d:BK5" % (10 + i % 30))
                except ValueError as e:
                    errors.append(str(e))
                    return
        threads = [threading.Thread(target=run) for _ in range(2)]
        for t in threads:
            t.start()
        tb.close()
        for t in threads:
            t.join()
        self.assertTrue(tb.closed)
        self.assertTrue(all(e == "dtb: the tablebase is closed" for e in errors), errors)


class TestOpen(unittest.TestCase):
    def test_context_manager(self):
        with dtb.open_tablebase(TABLES, cache_mb=1) as tb:
            self.assertFalse(tb.closed)
            self.assertEqual(tb.probe_wdl("W:WK10:BK5"), 2)
        self.assertTrue(tb.closed)
        with self.assertRaisesRegex(ValueError, "closed"):
            tb.probe("W:WK10:BK5")
        tb.close()  # again: nothing

    def test_paths(self):
        with dtb.open_tablebase([TABLES]) as tb:
            self.assertEqual(tb.probe("W:WK10:BK5").distance, 3)
        with self.assertRaises(ValueError):
            dtb.open_tablebase([])
        with self.assertRaises(ValueError):
            dtb.open_tablebase([""])

    def test_several_paths(self):
        """The tables split in two directories answer as in one."""
        with tempfile.TemporaryDirectory() as tmp:
            small, large = split_tables(tmp, lambda material: len(material) <= 3)  # "KvK": 2 pieces
            with dtb.open_tablebase(TABLES) as tb:
                want = [tb.probe(f) for f in ("W:WK10:BK5", "W:WK2,6:BK50")]
            for paths in ([small, large], ["", large, small], os.pathsep.join(["", small, large])):
                with dtb.open_tablebase(paths) as tb:
                    self.assertEqual([tb.probe(f) for f in ("W:WK10:BK5", "W:WK2,6:BK50")], want)
            with dtb.open_tablebase(small) as tb:
                with self.assertRaises(dtb.MissingTableError):
                    tb.probe("W:WK2,6:BK50")

    def test_cache_only(self):
        """A cache-only probe answers from the blocks earlier probes read,
        and raises NotCachedError (get_wdl: its default) where it would
        read the disk."""
        with dtb.open_tablebase(TABLES, cache_mb=1) as tb:
            for call in (tb.probe, tb.probe_wdl):
                with self.assertRaises(dtb.NotCachedError) as cm:
                    call("W:WK2,6:BK50", cache_only=True)
            e = cm.exception
            self.assertIsInstance(e, KeyError)
            self.assertNotIsInstance(e, dtb.MissingTableError)
            self.assertEqual((e.status, str(e)), (-4, "dtb: not in the cache (cache_only): the probe would read the disk"))
            self.assertIsNone(tb.get_wdl("W:WK2,6:BK50", cache_only=True))
            self.assertEqual(tb.get_wdl("W:WK2,6:BK50", "unknown", cache_only=True), "unknown")
            want = tb.probe("W:WK2,6:BK50", class_played=2)
            self.assertEqual(tb.probe("W:WK2,6:BK50", class_played=2, cache_only=True), want)
            self.assertEqual(tb.probe_wdl("W:WK2,6:BK50", class_played=2, cache_only=True), 1)
            self.assertEqual(tb.get_wdl("W:WK2,6:BK50", cache_only=True), 2)
            with self.assertRaises(dtb.MissingTableError):  # a missing table, not a miss
                tb.probe("W:WK1,K2:BK40,K45", cache_only=True)
            with self.assertRaises(dtb.IllegalPositionError):
                tb.probe("W:WK10:BK55", cache_only=True)

    def test_max_pieces_limit(self):
        """Under max_pieces=2, a 3-piece position is a missing table."""
        with dtb.open_tablebase(TABLES, cache_mb=1, max_pieces=2) as tb:
            self.assertEqual(tb.max_pieces, 2)
            self.assertEqual(tb.probe_wdl("W:WK10:BK5"), 2)
            with self.assertRaises(dtb.MissingTableError) as cm:
                tb.probe("W:WK2,6:BK50")
            self.assertEqual(str(cm.exception), "no table for KMvK: more than 2 pieces, the probe limit")
            with self.assertRaises(dtb.MissingTableError):
                tb.best_move("W:WK28:BK23,K41")
            self.assertIsNone(tb.get_wdl("W:WK2,6:BK50"))
        for limit in (None, 0, 3):
            with dtb.open_tablebase(TABLES, max_pieces=limit) as tb:
                self.assertEqual(tb.max_pieces, 3)
                self.assertEqual(tb.probe_wdl("W:WK2,6:BK50"), 2)

    def test_int_arguments(self):
        # Beyond a C int, max_pieces and cache_mb are refused, not cut to
        # 32 bits (max_pieces=2**32+2 once limited the probes to 2 pieces).
        for arg in ("max_pieces", "cache_mb"):
            for bad in (2**31, 2**32 + 2, -2**31 - 1):
                with self.assertRaisesRegex(ValueError, "^dtb: %s %d is out of range" % (arg, bad)):
                    dtb.open_tablebase(TABLES, **{arg: bad})
            with self.assertRaisesRegex(TypeError, "^dtb: %s must be an int, not float$" % arg):
                dtb.open_tablebase(TABLES, **{arg: 2.0})
        with dtb.open_tablebase(TABLES, cache_mb=-2**31, max_pieces=2**31 - 1) as tb:
            self.assertEqual(tb.max_pieces, 3)

    def test_nul_in_path(self):
        # A NUL once cut the path, opening the directory before it.
        for paths in (TABLES + "\0junk", os.fsencode(TABLES) + b"\0junk", [TABLES, "x\0"]):
            with self.assertRaisesRegex(ValueError, "^dtb: path .* embedded null byte$"):
                dtb.open_tablebase(paths)

    def test_missing_directory(self):
        missing = os.path.join(HERE, "no-such-directory")
        with self.assertRaises(dtb.TableError) as cm:
            dtb.open_tablebase(missing)
        self.assertIsInstance(cm.exception, OSError)
        msg = str(cm.exception)
        self.assertIn("MANIFEST.json", msg)
        self.assertNotIn("\n", msg)

    def test_library(self):
        path = dtb.library_path()
        self.assertEqual(dtb.library_path("/x/libdtb.so"), "/x/libdtb.so")
        with dtb.open_tablebase(TABLES, library=path) as tb:
            self.assertEqual(tb.max_pieces, 3)
        with self.assertRaisesRegex(dtb.TableError, "cannot load libdtb"):
            dtb.open_tablebase(TABLES, library=os.path.join(HERE, "no-such-library.so"))


if __name__ == "__main__":
    unittest.main()
