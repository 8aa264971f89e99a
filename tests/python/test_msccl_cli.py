"""`ccsched codegen msccl` size range (cost/size_range.hpp, docs/CODEGEN.md "Size range"):
minBytes/maxBytes from a time model, checked against closed forms; without one every size
(maxBytes 0, which the MSCCL schedulers read as no upper limit); refusals in one line."""
import re


def algo_range(path):
    head = path.read_text().split("\n")[1]
    return (int(re.search(r'minBytes="(\d+)"', head).group(1)),
            int(re.search(r'maxBytes="(\d+)"', head).group(1)))


def solve(cli, spec, cc, out, *extra):
    status, _, err = cli("solve", spec, "--cc", cc, "-o", out, "--quiet", *extra)
    assert status == 0, err


def test_without_a_time_model_every_size(cli):
    solve(cli, "kautz:3,2", "AAB", "aab.json")
    assert cli("codegen", "msccl", "aab.json", "-o", "a.xml")[0] == 0
    assert algo_range(cli.dir / "a.xml") == (0, 0)
    assert "Sizes: every size" in (cli.dir / "a.xml").read_text().split("\n")[0]


def test_ring_allreduce_is_best_from_the_crossover_up(cli):
    # ring:4, 4 blocks, one port: 6 steps, time 6*t0 + 1.5*m*t1: the ring algorithm R6
    # exactly (2(p-1)*t0 + 2(p-1)/p*m*t1), beaten below m = 10 t0 / (2.5 t1) by
    # reduce-broadcast (4 t0 + 4 m t1): with t0 = 5 us, t1 = 0.1 ns, m >= 40000 B.
    solve(cli, "ring:4", "ALLREDUCE", "ar.json", "--blocks", "4", "--ports", "1")
    status, _, err = cli("codegen", "msccl", "ar.json", "-o", "ar.xml", "--t0", "5us",
                         "--t1", "0.1ns")
    assert status == 0, err
    assert algo_range(cli.dir / "ar.xml") == (40000, 0)


def test_recursive_doubling_is_best_below_the_crossover(cli):
    # hypercube:3 recursive doubling: 3 t0 + 3 m t1 against R6 for p = 8, 14 t0 + 1.75 m t1:
    # faster while m < 11 t0 / (1.25 t1) = 440000 B (t0 = 5 us, t1 = 0.1 ns).
    solve(cli, "hypercube:3", "ALLREDUCE", "rd.json", "--ports", "1")
    assert cli("codegen", "msccl", "rd.json", "-o", "rd.xml", "--t0", "5us", "--t1",
               "0.1ns")[0] == 0
    low, high = algo_range(cli.dir / "rd.xml")
    assert low == 0 and 439999 <= high <= 440000


def test_allgather_range_is_in_whole_buffer_bytes(cli):
    # kautz:3,2 AAB: 4 steps against the ring's p - 1 = 11: faster at every size; the
    # runtime's nBytes is the whole output buffer, so a range would be scaled by 12.
    solve(cli, "kautz:3,2", "AAB", "aab.json")
    assert cli("codegen", "msccl", "aab.json", "-o", "b.xml", "--t0", "1us", "--t1",
               "0.5ns")[0] == 0
    assert algo_range(cli.dir / "b.xml") == (0, 0)
    assert "0 B and up of the whole buffer" in (cli.dir / "b.xml").read_text()


def test_refusals_are_one_line(cli):
    solve(cli, "ring:4", "AAB", "r.json")
    for args, message in [
        (("--t0", "1us"), "ccsched: error: --t1: a time model needs both --t0 and --t1\n"),
        (("--t0", "1us", "--t1", "1ns", "--min-bytes", "8"),
         "ccsched: error: --min-bytes: give either --min-bytes/--max-bytes or a time model "
         "(--t0, --t1)\n"),
    ]:
        status, out, err = cli("codegen", "msccl", "r.json", "-o", "x.xml", *args)
        assert (status, out, err) == (2, "", message)
        assert not (cli.dir / "x.xml").exists()


def test_executor_limits_are_refused_in_one_line(cli):
    # 64 steps per thread block (MSCCL_MAX_NUM_STEPS) and 128 thread blocks per GPU (int8_t
    # dependentBid): hypercube:7 AAB sends 120 chunks to one neighbour; complete:66 AAS
    # needs 2 * 65 + 1 thread blocks on every GPU.
    for spec, cc, message in [
        ("hypercube:7", "AAB", "rank 0 needs 120 steps in one thread block; the executor "
                               "allows 64"),
        ("complete:66", "AAS", "rank 0 needs 131 thread blocks; the executor can wait for 128"),
    ]:
        solve(cli, spec, cc, "big.json", "--time-limit", "10")
        status, out, err = cli("codegen", "msccl", "big.json", "-o", "big.xml")
        assert (status, out, err) == (2, "", "ccsched: error: codegen msccl: " + message + "\n")
        assert not (cli.dir / "big.xml").exists()
