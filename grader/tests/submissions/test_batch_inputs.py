#!/usr/bin/env python3
"""Unit tests of what a class hands in, as the batch grader reads it: which
entries of the submissions folder become which rows (formats, links,
dot-entries, names that are no id), archives damaged anywhere (fuzzed:
only Rejected may come out), paths inside archives, files too large for a
lab, and a review that stays linear on hostile code. ctest: batch.inputs."""
import csv
import gzip
import hashlib
import io
import os
import random
import shutil
import sys
import tarfile
import tempfile
import time
import types
import unittest
import unittest.mock
import zipfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from batch import batch, cli, outputs, records, review, submissions  # noqa: E402

LAB_FILE = "labs/lab1_indexing/indexing.cu"
TAR_MODES = {"tar": "w", "tar.gz": "w:gz", "tar.bz2": "w:bz2", "tar.xz": "w:xz"}
SUFFIX = {"zip": ".zip", "tar": ".tar", "tar.gz": ".tar.gz", "tar.bz2": ".tar.bz2",
          "tar.xz": ".tar.xz"}


def lab_source(seed=0, lines=300):
    """A few KiB of C that compresses into more than one block type: some
    repetition, some noise."""
    rng = random.Random(seed)
    out = ["#include <cuda_runtime.h>\n"]
    for i in range(lines):
        out.append("__global__ void k%d(float *a, int n) { int i = blockIdx.x * %d + threadIdx.x; "
                   "if (i < n) a[i] = %d.%df; } // %x\n"
                   % (i, rng.randint(1, 1024), rng.randint(0, 99), rng.randint(0, 9),
                      rng.getrandbits(48)))
    return "".join(out).encode()


def make_archive(path, kind, files):
    """An archive of `kind` at `path` holding {relative path: bytes}."""
    if kind == "zip":
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
            for rel, data in files.items():
                z.writestr(rel, data)
        return
    with tarfile.open(path, TAR_MODES[kind]) as t:
        for rel, data in files.items():
            info = tarfile.TarInfo(rel)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))


def touch(path, data=b""):
    with open(path, "wb") as f:
        f.write(data)


class InTempDir(unittest.TestCase):
    """A fresh folder, self.dir, for each test; entries() fills it."""
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.dir)

    def entries(self, *names, folders=()):
        for name in names:
            touch(os.path.join(self.dir, name))
        for name in folders:
            os.mkdir(os.path.join(self.dir, name))


class SafeRelativeTest(unittest.TestCase):
    def test_components(self):
        rel = submissions._safe_relative
        self.assertEqual(rel("./labs/x.cu"), "labs/x.cu")
        self.assertEqual(rel(".labs/x.cu"), ".labs/x.cu")  # lstrip("./") made it labs/x.cu
        self.assertEqual(rel("a//b"), "a/b")
        self.assertEqual(rel("a/./b/"), "a/b")
        self.assertEqual(rel("..hidden/x"), "..hidden/x")
        self.assertEqual(rel("a\\b\\c.cu"), "a/b/c.cu")
        self.assertEqual(rel("./"), "")
        self.assertEqual(rel("."), "")

    def test_unsafe_rejected(self):
        for name in ("../x", "/x", "a/../../x", "\\x", "a\\..\\x", "a/.."):
            with self.assertRaises(submissions.Rejected, msg=name):
                submissions._safe_relative(name)

    def test_dot_folder_unpacked_as_is(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "s.zip")
            make_archive(path, "zip", {".labs/x.cu": b"x", "./labs/y.cu": b"y"})
            out = os.path.join(d, "out")
            submissions.unpack(submissions.Submission("s", path, "zip"), out)
            self.assertTrue(os.path.isfile(os.path.join(out, ".labs", "x.cu")))
            self.assertTrue(os.path.isfile(os.path.join(out, "labs", "y.cu")))


class DiscoverTest(InTempDir):
    def by_id(self):
        subs, notes = submissions.discover(self.dir)
        self.assertEqual([s.id for s in subs], sorted(s.id for s in subs))
        return {s.id: s for s in subs}, notes

    def test_formats(self):
        kinds = {"a.zip": "zip", "b.ZIP": "zip", "c.tar": "tar", "d.tar.gz": "tar.gz",
                 "e.tgz": "tar.gz", "f.tar.bz2": "tar.bz2", "g.tbz2": "tar.bz2",
                 "h.tar.xz": "tar.xz", "i.TXZ": "tar.xz"}
        self.entries(*kinds, "x.rar", "y.7z", "notes.txt", "z.tar.zst", ".DS_Store",
                     folders=("j", ".hidden"))
        os.symlink(os.path.join(self.dir, "a.zip"), os.path.join(self.dir, "link.zip"))
        os.symlink("/", os.path.join(self.dir, "rootlink"))
        subs, notes = self.by_id()
        for name, kind in kinds.items():
            sub = subs[name.split(".")[0]]
            self.assertEqual((sub.kind, sub.error, sub.name), (kind, None, name))
        self.assertEqual((subs["j"].kind, subs["j"].error), ("folder", None))
        for sid, name in (("x", "x.rar"), ("y", "y.7z"), ("notes", "notes.txt"), ("z", "z.tar.zst")):
            self.assertIsNone(subs[sid].kind)
            self.assertIn("unsupported format: %s" % name, subs[sid].error)
            self.assertIn(".tar.xz", subs[sid].error)  # names what is accepted
            with self.assertRaises(submissions.Rejected):
                submissions.unpack(subs[sid], os.path.join(self.dir, "..", "never"))
        for sid in ("link", "rootlink"):
            self.assertIsNone(subs[sid].kind)
            self.assertIn("symbolic link", subs[sid].error)
        self.assertNotIn(".hidden", subs)
        self.assertNotIn(".DS_Store", subs)
        self.assertTrue(any(".hidden" in n for n in notes), notes)
        self.assertTrue(any(".DS_Store" in n for n in notes), notes)

    def test_names_that_are_no_id(self):
        raw_folder = os.fsencode(self.dir)
        bad = {b"\xff\xfeabc.zip": "UTF-8", b"a" * 150 + b".zip": "longer than",
               b"ctl\x01x.tar.gz": "non-printable", b"tab\tname": "non-printable",
               b"nl\nname.zip": "non-printable", "\u00e9\u202e.zip".encode(): "non-printable"}
        for raw in bad:
            if raw.startswith(b"tab"):
                os.mkdir(os.path.join(raw_folder, raw))
            else:
                touch(os.path.join(raw_folder, raw))
        good = "\u00e9l\u00e8ve-\u5b66\u751f.zip"  # UTF-8 and printable: a fine id
        self.entries(good)
        subs, notes = self.by_id()
        self.assertEqual(len(subs), len(bad) + 1)
        self.assertIsNone(subs["\u00e9l\u00e8ve-\u5b66\u751f"].error)
        for raw, why in bad.items():
            sid = "invalid-id-" + hashlib.sha256(raw).hexdigest()[:12]
            sub = subs[sid]
            self.assertIn(why, sub.error)
            self.assertIn("not a valid id", sub.error)
            self.assertTrue(sub.name.isprintable(), sub.name)
            self.assertTrue(os.path.lexists(sub.path))
            self.assertTrue(any(sid in n for n in notes), notes)
            with self.assertRaises(submissions.Rejected):
                submissions.unpack(sub, os.path.join(self.dir, "..", "never"))
        self.assertIn("\\xff\\xfeabc.zip", subs["invalid-id-" + hashlib.sha256(
            b"\xff\xfeabc.zip").hexdigest()[:12]].name)

    def test_two_entries_for_one_id(self):
        self.entries("a.zip", "b.ZIP", "b.zip", "b.tgz", folders=("a",))
        subs, _ = self.by_id()
        self.assertEqual(sorted(subs), ["a", "b"])
        self.assertIn("two entries for this id (a and a.zip)", subs["a"].error)
        self.assertIn("3 entries for this id (b.ZIP, b.tgz and b.zip)", subs["b"].error)

    def test_nfd_names_are_nfc_ids(self):
        """A macOS zip tool writes "e" + U+0301; the roster has U+00E9."""
        self.entries("Ame\u0301lie.zip", folders=("Zoe\u0308",))
        subs, _ = self.by_id()
        self.assertEqual(sorted(subs), ["Am\u00e9lie", "Zo\u00eb"])
        sub = subs["Am\u00e9lie"]
        self.assertIsNone(sub.error)
        self.assertTrue(os.path.exists(sub.path), "the entry is opened by its own name")
        self.assertEqual(subs["Zo\u00eb"].kind, "folder")

    def test_nfd_and_nfc_entries_are_one_id_with_an_error(self):
        self.entries("Ame\u0301lie.zip", "Am\u00e9lie.zip")
        subs, _ = self.by_id()
        self.assertEqual(list(subs), ["Am\u00e9lie"])
        self.assertIn("two entries for this id", subs["Am\u00e9lie"].error)

    def test_look_alike_ids_are_each_an_error(self):
        self.entries("Alice.zip", "BOB.rar", "bob.tgz", "carol.zip",
                     "STRASSE.zip", "stra\u00dfe.zip",  # casefold: ss
                     folders=("alice", "alice "))
        subs, _ = self.by_id()
        self.assertEqual(sorted(subs), ["Alice", "BOB", "STRASSE", "alice", "alice ", "bob",
                                        "carol", "stra\u00dfe"])
        self.assertIsNone(subs["carol"].error)
        for sid, others in (("Alice", ["alice", "alice "]), ("alice", ["Alice.zip", "alice "]),
                            ("alice ", ["Alice.zip", "alice"]), ("bob", ["BOB.rar"]),
                            ("STRASSE", ["stra\u00dfe.zip"]), ("stra\u00dfe", ["STRASSE.zip"])):
            error = subs[sid].error
            self.assertIn("looks like that of", error, sid)
            for other in others:
                self.assertIn(other, error, sid)
            with self.assertRaises(submissions.Rejected):
                submissions.unpack(subs[sid], os.path.join(self.dir, "..", "never"))
        # its own problem is still said
        self.assertIn("unsupported format", subs["BOB"].error)

    def test_bytes_folder_and_empty(self):
        self.assertEqual(submissions.discover(self.dir), ([], []))
        self.entries("s.zip")
        subs, _ = submissions.discover(os.fsencode(self.dir))
        self.assertEqual([s.id for s in subs], ["s"])


class IdPatternTest(InTempDir):
    """--id-pattern: the ids in an LMS's download names, and the summary
    printed before grading made of those ids, not of the names."""
    def test_canvas_names(self):
        self.entries("bob_12345_67890_submission.tar.gz", "carol_LATE_222_333_labs.zip",
                     "dave.tar.gz")
        pattern = submissions.compile_id_pattern("canvas")
        subs, _ = submissions.discover(self.dir, pattern)
        by_id = {s.id: s for s in subs}
        self.assertEqual(set(by_id), {"bob", "carol", "dave"})
        self.assertEqual((by_id["bob"].kind, by_id["bob"].pattern), ("tar.gz", "matched"))
        self.assertEqual(by_id["carol"].kind, "zip")
        self.assertEqual(by_id["dave"].pattern, "missed")  # its own name, listed
        subs, _ = submissions.discover(self.dir, submissions.compile_id_pattern(
            "canvas-user-id"))
        self.assertEqual({s.id for s in subs}, {"12345", "222", "dave"})

    def test_summary_before_grading_uses_the_ids(self):
        self.entries("bob_12345_67890_submission.tar.gz", "zed_1_2_submission.tar.gz",
                     "notes.tar.gz")
        subs, _ = submissions.discover(self.dir, submissions.compile_id_pattern("canvas"))
        names = {s.id: s.name for s in subs if s.pattern}
        lines = outputs.roster_summary(["alice", "bob"], [s.id for s in subs], names=names)
        self.assertEqual(lines[0], "roster: 1 rostered ids have no submission: alice")
        self.assertEqual(lines[1], "roster: 2 submissions are on no roster line: notes "
                                   "(notes.tar.gz) zed (zed_1_2_submission.tar.gz)")
        lines = outputs.pattern_summary(subs, "canvas")
        self.assertIn("2 of 3 entries named an id", lines[0])
        self.assertIn("1 entries match it not, graded under their own name: notes.tar.gz",
                      lines[1])

    def test_moodle_folders_holding_the_archive(self):
        folder = os.path.join(self.dir, "Bob Builder_4242_assignsubmission_file_")
        os.mkdir(folder)
        make_archive(os.path.join(folder, "submission.tar.gz"), "tar.gz",
                     {LAB_FILE: b"// bob"})
        subs, _ = submissions.discover(self.dir, submissions.compile_id_pattern("moodle"))
        self.assertEqual([(s.id, s.kind) for s in subs], [("Bob Builder", "folder")])
        out = os.path.join(self.dir, "..", os.path.basename(self.dir) + "-unpacked")
        try:
            submissions.unpack(subs[0], out)  # the archive in the folder, unpacked
            with open(os.path.join(out, LAB_FILE), "rb") as f:
                self.assertEqual(f.read(), b"// bob")
        finally:
            shutil.rmtree(out, ignore_errors=True)
        subs, _ = submissions.discover(self.dir, submissions.compile_id_pattern(
            "moodle-participant"))
        self.assertEqual([s.id for s in subs], ["4242"])

    def test_two_attempts_of_one_id_are_one_error_row(self):
        self.entries("bob_1_2_a.zip", "bob_1_3_b.zip")
        subs, _ = submissions.discover(self.dir, submissions.compile_id_pattern("canvas"))
        self.assertEqual(len(subs), 1)
        self.assertIn("two entries for this id", subs[0].error)

    def test_bad_patterns_are_refused(self):
        for text in ("(", "no_group", "(a)(b)"):
            with self.assertRaises(submissions.IdPatternError, msg=text):
                submissions.compile_id_pattern(text)
        self.assertEqual(submissions.compile_id_pattern(r"^s(\d+)").pattern, r"^s(\d+)")


class RosterTest(InTempDir):
    """The roster: a CSV with a header row, its id column named; read and
    checked once, before grading; nothing guessed."""
    def roster(self, text, column="id", name="roster.csv"):
        path = os.path.join(self.dir, name)
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        return outputs.read_roster(path, column)

    def refused(self, text, *words, column="id"):
        with self.assertRaises(outputs.RosterError) as cm:
            self.roster(text, column)
        message = str(cm.exception)
        self.assertIn(os.path.join(self.dir, "roster.csv"), message)
        for word in words:
            self.assertIn(word, message)
        return message

    def test_blank_lines_are_skipped(self):
        self.assertEqual(self.roster("\n\nid,name\n\nalice,A\n , \n bob ,B\n\n"),
                         ["alice", "bob"])

    def test_column_by_name_any_case(self):
        text = "Name, Student ID ,Email\nAnn,s1,a@x\nBen,s2,b@x\n"
        self.assertEqual(self.roster(text, "student id"), ["s1", "s2"])
        self.assertEqual(self.roster("ID\nx1\n"), ["x1"])
        self.assertEqual(self.roster("\ufeffid\nx1\n"), ["x1"])  # Excel's BOM

    def test_no_guessing_the_header(self):
        # A headerless roster: its first id is no column name.
        message = self.refused("alice.b\nbob\n", "line 1", "no column 'id'", "'alice.b'",
                               "--roster-column")
        self.assertNotIn("bob", message)
        self.refused("Email,Name\na@x,Ann\n", "no column 'id'", "'Email', 'Name'")
        self.assertEqual(self.roster("Email,Name\na@x,Ann\n", "email"), ["a@x"])
        self.refused("id,ID\na,b\n", "2 columns named 'id'")

    def test_ids_are_nfc(self):
        self.assertEqual(self.roster("id\nAme\u0301lie\n"), ["Am\u00e9lie"])

    def test_formula_cells_are_refused(self):
        for bad in ("=HYPERLINK(\"x\")", " +1", "-2", "@SUM(A1)"):
            self.refused("id,name\nalice,A\n%s,B\n" % bad, "line 3", "formula")

    def test_look_alike_ids_name_both_lines(self):
        for first, second in (("alice", "Alice"), ("alice", "alice "),
                              ("Am\u00e9lie", "Ame\u0301lie"), ("bob", "bob")):
            self.refused("id\n%s\ncarol\n\n%s\n" % (first, second), "line 5", "line 2")

    def test_nothing_to_read(self):
        self.refused("", "empty")
        self.refused("\n \n", "empty")
        self.refused("id,name\n\n", "no student ids")
        self.refused("id,name\nalice,A\n,Ben\n", "line 3", "no id")
        path = os.path.join(self.dir, "roster.csv")
        touch(path, b"id\nal\xe9\n")  # Latin-1
        with self.assertRaises(outputs.RosterError) as cm:
            outputs.read_roster(path)
        self.assertIn("UTF-8", str(cm.exception))
        with self.assertRaises(outputs.RosterError):
            outputs.read_roster(os.path.join(self.dir, "absent.csv"))

    def test_a_bad_roster_stops_the_batch_before_anything(self):
        path = os.path.join(self.dir, "roster.csv")
        touch(path, b"\nid\nalice\nALICE\n")
        b = batch.Batch.__new__(batch.Batch)
        b.args = types.SimpleNamespace(roster=path, roster_column="id")
        b.prepare = lambda: self.fail("the course was prepared for a roster that is refused")
        with self.assertRaises(SystemExit) as cm:
            b.run()
        self.assertIn("stopped before grading", str(cm.exception))
        self.assertIn(path + " line 4", str(cm.exception))

    def test_the_roster_is_read_once(self):
        path = os.path.join(self.dir, "roster.csv")
        touch(path, b"id\nalice\nbob\n")
        b = batch.Batch.__new__(batch.Batch)
        b.args = types.SimpleNamespace(roster=path, roster_column="id")
        b.roster = b.load_roster()
        touch(path, b"\n")  # changed or broken mid-run: the batch has its ids
        b.out = os.path.join(self.dir, "out")
        b.labs_info = [records.LabInfo("lab1", "Lab 1", 5, 0)]
        b.every_id = []
        b.write_outputs(final=False)
        with open(os.path.join(b.out, "gradebook.csv"), encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
        self.assertEqual([(r["id"], r["grading_status"]) for r in rows[1:]],
                         [("alice", "not submitted"), ("bob", "not submitted")])


class RosterRowsTest(unittest.TestCase):
    """A submission and the roster: one row per student, whatever the
    Unicode form; a look-alike is an error row, never two rows."""
    def rows(self, submitted, roster):
        students = {sid: records.StudentRecord(id=sid, state="graded", entry=sid + ".zip")
                    for sid in submitted}
        got = outputs.with_roster(students, roster)
        return {sid: outputs.status_text(rec, []) for sid, rec in got.items()}

    def test_rows(self):
        self.assertEqual(self.rows(["alice", "zed"], ["alice", "bob"]),
                         {"alice": "ok", "bob": "not submitted", "zed": "not on the roster"})

    def test_look_alike_is_one_error_row(self):
        rows = self.rows(["alice", "bob "], ["Alice", "bob", "carol"])
        self.assertEqual(sorted(rows), ["alice", "bob ", "carol"])
        self.assertTrue(rows["alice"].startswith("error: "), rows)
        self.assertIn("'Alice'", rows["alice"])
        self.assertIn("'bob'", rows["bob "])
        self.assertEqual(rows["carol"], "not submitted")

    def test_nfd_submission_meets_nfc_roster(self):
        """discover gives NFC ids: one row, graded, on the roster."""
        with tempfile.TemporaryDirectory() as d:
            touch(os.path.join(d, "Ame\u0301lie.zip"))
            subs, _ = submissions.discover(d)
            rows = self.rows([s.id for s in subs], ["Am\u00e9lie"])
        self.assertEqual(rows, {"Am\u00e9lie": "ok"})


class FoldersApartTest(unittest.TestCase):
    """OUT inside the submissions would be a student on the next run."""
    def test_refused_before_the_batch(self):
        with tempfile.TemporaryDirectory() as d:
            subs = os.path.join(d, "subs")
            os.makedirs(os.path.join(subs, "alice"))
            os.symlink(subs, os.path.join(d, "link"))
            refused = [subs, os.path.join(subs, "graded"), os.path.join(subs, "alice", "x"),
                       os.path.join(d, "link", "graded"), os.path.join(subs, "..", "subs"), d]
            for out in refused:
                self.assertIsNotNone(cli.folders_overlap(subs, out), out)
                with unittest.mock.patch.object(batch, "Batch",
                                                side_effect=AssertionError("graded")), \
                        unittest.mock.patch("sys.stderr", io.StringIO()) as err:
                    self.assertEqual(cli.main([subs, "-o", out]), 2, out)
                self.assertIn("folder", err.getvalue())
                self.assertFalse(os.path.exists(os.path.join(subs, "graded")))
            for out in (os.path.join(d, "out"), os.path.join(d, "subs2"), os.path.join(d, "sub")):
                self.assertIsNone(cli.folders_overlap(subs, out), out)


class DamagedArchiveFuzzTest(unittest.TestCase):
    """Every format, a valid archive damaged at many places: unpack either
    succeeds or raises Rejected, never anything else (zlib.error,
    LZMAError, EOFError, ... crashed the batch)."""
    VARIANTS = 60

    def damaged(self, data, rng):
        """One damaged copy: a range inside the compressed data (past the
        first header bytes) flipped, zeroed or cut, now and then anywhere."""
        data = bytearray(data)
        low = 0 if rng.random() < 0.2 else min(40, len(data) // 4)
        pos = rng.randrange(low, len(data))
        length = rng.choice([1, 1, 2, 4, 16, 64, 512])
        how = rng.choice(["flip", "flip", "zero", "random", "cut"])
        end = min(len(data), pos + length)
        if how == "cut":
            return bytes(data[:pos])
        for i in range(pos, end):
            data[i] = 0 if how == "zero" else (data[i] ^ (1 << rng.randrange(8))) if how == "flip" \
                else rng.randrange(256)
        return bytes(data)

    def test_damaged_archives_only_rejected(self):
        files = {LAB_FILE: lab_source(1), "labs/lab2_matmul/matmul.cu": lab_source(2, 100),
                 "README.md": b"notes\n" * 50}
        with tempfile.TemporaryDirectory() as d:
            for kind, suffix in SUFFIX.items():
                good = os.path.join(d, "good" + suffix)
                make_archive(good, kind, files)
                out = os.path.join(d, "out-good-" + kind)
                submissions.unpack(submissions.Submission("good", good, kind), out)
                with open(os.path.join(out, LAB_FILE), "rb") as f:
                    self.assertEqual(f.read(), files[LAB_FILE])
                with open(good, "rb") as f:
                    data = f.read()
                rng = random.Random("fuzz-" + kind)
                outcomes = {"ok": 0, "rejected": 0}
                crashed = []
                for v in range(self.VARIANTS):
                    path = os.path.join(d, "v%d%s" % (v, suffix))
                    touch(path, self.damaged(data, rng))
                    out = os.path.join(d, "out-%s-%d" % (kind, v))
                    try:
                        submissions.unpack(submissions.Submission("v", path, kind), out)
                        outcomes["ok"] += 1
                    except submissions.Rejected as e:
                        self.assertTrue(str(e))
                        outcomes["rejected"] += 1
                    except Exception as e:  # noqa: BLE001 - what the test is looking for
                        crashed.append("variant %d: %s: %s" % (v, type(e).__name__, e))
                    shutil.rmtree(out, ignore_errors=True)
                    os.unlink(path)
                self.assertEqual(crashed, [], kind)
                if kind != "tar":  # a damaged plain tar may still read
                    self.assertGreater(outcomes["rejected"], 0, kind)

    def test_not_an_archive(self):
        with tempfile.TemporaryDirectory() as d:
            for kind, suffix in SUFFIX.items():
                for content in (b"", b"this is not an archive\n", b"\x1f\x8b\x08rubbish",
                                b"BZh9rubbish", b"\xfd7zXZ\x00rubbish", b"PK\x03\x04" + b"\0" * 40):
                    path = os.path.join(d, "x" + suffix)
                    touch(path, content)
                    with self.assertRaises(submissions.Rejected, msg=(kind, content)) as cm:
                        submissions.unpack(submissions.Submission("x", path, kind),
                                           os.path.join(d, "out"))
                    if kind == "zip":
                        self.assertIn("zip", str(cm.exception))

    def test_header_claiming_gigabytes(self):
        """A GNU long-name header whose size says 1 GiB: tarfile would read
        it whole, in memory."""
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "bomb.tar.gz")
            header = tarfile.TarInfo("././@LongLink")
            header.type = tarfile.GNUTYPE_LONGNAME
            header.size = 1 << 30
            with open(path, "wb") as raw:
                with gzip.GzipFile(fileobj=raw, mode="wb") as z:
                    z.write(header.tobuf(format=tarfile.GNU_FORMAT))
                    z.write(b"\0" * (4 << 20))
            with self.assertRaises(submissions.Rejected):
                submissions.unpack(submissions.Submission("b", path, "tar.gz"),
                                   os.path.join(d, "out"))


class LargeFileTest(unittest.TestCase):
    """A file over MAX_FILE_BYTES is skipped and listed in too_large; the
    submission is graded. The caps that remain still hold."""
    def test_folder_with_sparse_300_mb_file(self):
        with tempfile.TemporaryDirectory() as d:
            src = os.path.join(d, "s")
            os.makedirs(os.path.join(src, "labs", "lab1_indexing"))
            touch(os.path.join(src, LAB_FILE), b"int x;\n")
            with open(os.path.join(src, "video.mp4"), "wb") as f:
                f.truncate(300 << 20)  # sparse: no disk, and never read
            start = time.monotonic()
            sub = submissions.Submission("s", src, "folder")
            out = submissions.unpack(sub, os.path.join(d, "out"))
            self.assertLess(time.monotonic() - start, 5)
            self.assertEqual(sub.too_large, ["video.mp4"])
            self.assertFalse(os.path.exists(os.path.join(out, "video.mp4")))
            taken, _ = submissions.select(out, {LAB_FILE})
            self.assertEqual(list(taken), [LAB_FILE])

    def test_archives_with_a_file_over_the_limit(self):
        big = b"\0" * (submissions.MAX_FILE_BYTES + (3 << 20))
        with tempfile.TemporaryDirectory() as d:
            for kind, suffix in SUFFIX.items():
                path = os.path.join(d, "s" + suffix)
                make_archive(path, kind, {"data/big.bin": big, LAB_FILE: b"int x;\n"})
                sub = submissions.Submission("s", path, kind)
                out = submissions.unpack(sub, os.path.join(d, "out-" + kind))
                self.assertEqual(sub.too_large, ["data/big.bin"], kind)
                self.assertFalse(os.path.exists(os.path.join(out, "data", "big.bin")), kind)
                self.assertTrue(os.path.isfile(os.path.join(out, LAB_FILE)), kind)

    def test_a_lab_file_over_the_limit_is_too_large_not_missing(self):
        big = b"// x\n" * ((submissions.MAX_FILE_BYTES >> 2) + 10)
        other = "labs/lab2_matmul/matmul.cu"
        with tempfile.TemporaryDirectory() as d:
            for top in ("", "cuda-labs-main/", "a/b/"):
                path = os.path.join(d, "s.zip")
                make_archive(path, "zip", {top + LAB_FILE: big, top + other: b"int y;\n",
                                           top + "notes/big.bin": big})
                sub = submissions.Submission("s", path, "zip")
                out = submissions.unpack(sub, os.path.join(d, "out" + top.replace("/", "_")))
                taken, _ = submissions.select(out, {LAB_FILE, other})
                self.assertEqual(list(taken), [other], top)
                self.assertEqual(submissions.too_large_lab_files(sub.too_large, [LAB_FILE],
                                                                 taken), [LAB_FILE], top)
                self.assertEqual(submissions.too_large_lab_files(sub.too_large, [other], taken),
                                 [], top)
        # A lab file the course root holds is taken: a big copy elsewhere is no matter.
        self.assertEqual(submissions.too_large_lab_files(
            ["old/" + LAB_FILE], [LAB_FILE], {LAB_FILE: "/x"}), [])
        # Deeper than find_course_root looks: not this lab's file.
        self.assertEqual(submissions.too_large_lab_files(
            ["a/b/c/" + LAB_FILE], [LAB_FILE], {}), [])

    def test_zip_header_lying_about_size(self):
        """The central directory says 100 bytes, the data holds 2 MiB: never
        more than the cap is read or written."""
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "s.zip")
            make_archive(path, "zip", {"big.cu": b"x" * (2 << 20)})
            with open(path, "rb") as f:
                data = bytearray(f.read())
            central = data.rfind(b"PK\x01\x02")
            data[central + 24:central + 28] = (100).to_bytes(4, "little")  # uncompressed size
            touch(path, bytes(data))
            out = os.path.join(d, "out")
            try:
                submissions.unpack(submissions.Submission("s", path, "zip"), out)
            except submissions.Rejected:
                pass
            written = os.path.join(out, "big.cu")
            if os.path.exists(written):
                self.assertLessEqual(os.path.getsize(written), submissions.MAX_FILE_BYTES)

    def test_total_and_member_caps_hold(self):
        saved = submissions.MAX_ARCHIVE_BYTES, submissions.MAX_MEMBERS
        try:
            submissions.MAX_ARCHIVE_BYTES, submissions.MAX_MEMBERS = 3 << 20, 10
            with tempfile.TemporaryDirectory() as d:
                for kind, suffix in SUFFIX.items():
                    path = os.path.join(d, "heavy" + suffix)
                    make_archive(path, kind, {"f%d" % i: b"\1" * (1 << 20) for i in range(4)})
                    with self.assertRaises(submissions.Rejected, msg=kind):
                        submissions.unpack(submissions.Submission("h", path, kind),
                                           os.path.join(d, "out-h-" + kind))
                    path = os.path.join(d, "many" + suffix)
                    make_archive(path, kind, {"f%d" % i: b"x" for i in range(11)})
                    with self.assertRaises(submissions.Rejected, msg=kind):
                        submissions.unpack(submissions.Submission("m", path, kind),
                                           os.path.join(d, "out-m-" + kind))
        finally:
            submissions.MAX_ARCHIVE_BYTES, submissions.MAX_MEMBERS = saved


    def test_skipping_compressed_members_is_capped(self):
        """Skipping a member of a compressed tar decompresses it: a bomb of
        skipped members is bounded too; skipping in a plain tar is free."""
        saved = submissions.MAX_SKIPPED_BYTES
        try:
            submissions.MAX_SKIPPED_BYTES = 2 << 20
            with tempfile.TemporaryDirectory() as d:
                files = {"big.bin": b"\0" * (4 << 20), LAB_FILE: b"int x;\n"}
                for kind, suffix in SUFFIX.items():
                    if kind == "zip":
                        continue
                    path = os.path.join(d, "s" + suffix)
                    make_archive(path, kind, files)
                    sub = submissions.Submission("s", path, kind)
                    if kind == "tar":
                        submissions.unpack(sub, os.path.join(d, "out-" + kind))
                        self.assertEqual(sub.too_large, ["big.bin"])
                    else:
                        with self.assertRaises(submissions.Rejected, msg=kind):
                            submissions.unpack(sub, os.path.join(d, "out-" + kind))
        finally:
            submissions.MAX_SKIPPED_BYTES = saved


class ReviewSpeedTest(unittest.TestCase):
    """flags_for_file is linear: a hostile file cannot stall the batch
    (the review holds the GIL in one of its threads).
    The limit only has to tell linear from quadratic: the worst of these
    inputs takes 0.5 s on an idle core and took 2.05 s on a 2-core machine
    with two builds beside it, while the quadratic review these tests were
    written for had graded no student after 212 s."""
    LIMIT_S = 10.0

    def review(self, text):
        start = time.monotonic()
        flags = review.flags_for_file("labs/x.cu", text, "")
        took = time.monotonic() - start
        self.assertLess(took, self.LIMIT_S, "%.2f s" % took)
        self.assertLessEqual(max((len(f.excerpt) for f in flags), default=0), 160)
        return flags

    def test_one_mib_single_line(self):
        unit = 'exit(1); "a\\" /* x fopen(f) \'q 1\'0 #include "grader/x 7 passed, 1 failed '
        text = (unit * ((1 << 20) // len(unit) + 1))[:1 << 20]
        flags = self.review(text)
        names = [f.flag for f in flags]
        self.assertEqual(names[0], review.CUT_FLAG)
        self.assertIn("process control", names)
        self.assertLess(len(flags), 200)  # counted past MAX_FLAGS_PER_RULE, not listed

    def test_one_mib_of_short_lines(self):
        line = 'exit(0); // c\n'
        text = "".join(line if i % 3 else 'fopen("f");\n' for i in range(100000))
        text = text[:1 << 20]
        flags = self.review(text)
        first = [f for f in flags if f.flag == "file or network call"][0]
        self.assertEqual((first.line, first.excerpt), (1, 'fopen("f");'))
        second = [f for f in flags if f.flag == "process control"][1]
        self.assertEqual((second.line, second.excerpt), (3, "exit(0); // c"))

    def test_pathological_patterns(self):
        for unit in ('"\\', "'\\", "/*", '"', "1", " ", "#include <", "#include \"a", "Score 1",
                     "cudaStreamCreate", "1 ", "exit", "\\"):
            text = unit * ((1 << 19) // len(unit))
            self.review(text)
            self.review("\n".join([text[:200]] * 2500))

    def test_semantics_kept(self):
        flags = lambda code: {f.flag for f in review.flags_for_file("a.cu", code, "")}  # noqa: E731
        self.assertEqual(flags("/* exit(1); never closed"), set())
        self.assertEqual(flags('const char *s = "exit(1)";\n'), set())
        self.assertEqual(flags("char c = '\"'; exit(1); // \"\n"), {"process control"})
        # An unclosed quote is code, as before; a digit separator opens no literal.
        self.assertEqual(flags('x = "abc\nexit(1);\n'), {"process control"})
        self.assertEqual(flags("int n = 1'000; exit(1); char c = 'a';"), {"process control"})
        long_line = "int a; " * 200 + "system(\"x\");" + " int b;" * 200
        [flag] = review.flags_for_file("a.cu", long_line, "")
        self.assertIn("system(", flag.excerpt)


if __name__ == "__main__":
    unittest.main()
