"""NetworkX node-link JSON on the command line: what networkx.node_link_data writes (with
"links", or "edges" as NetworkX 3.4 may write) is a topology file everywhere a .json one
is; `topo export --format node-link` writes what networkx.node_link_graph reads back; bad
documents are one line on stderr and exit status 2."""
import json

import networkx as nx


def write(cli, name, data):
    (cli.dir / name).write_text(json.dumps(data))
    return name


def test_node_link_data_is_a_topology_file(cli):
    g = nx.petersen_graph()
    name = write(cli, "petersen.json", nx.node_link_data(g))
    status, out, err = cli("topo", "info", name)
    assert status == 0, err
    assert "10 (10 processors, 0 switches)" in out and "diameter       2" in out
    status, out, err = cli("solve", name, "--cc", "AAB", "--quiet")
    assert status == 0, err
    assert "steps        3 (optimal" in out


def test_edges_key_and_directed_graphs(cli):
    g = nx.DiGraph(nx.cycle_graph(5, create_using=nx.DiGraph))
    data = nx.node_link_data(g)
    data["edges"] = data.pop("links")
    name = write(cli, "cycle.json", data)
    status, out, err = cli("topo", "info", name)
    assert status == 0, err
    assert "channels       5 (directed)" in out


def test_export_node_link_reads_back_in_networkx(cli):
    for spec in ("kautz:3,2", "omega:8", "torus:3x3"):
        status, out, err = cli("topo", "export", spec, "--format", "node-link")
        assert status == 0, err
        data = json.loads(out)
        g = nx.node_link_graph(data)
        status, ref, _ = cli("topo", "export", spec, "--format", "json")
        ref = json.loads(ref)
        channels = len(ref["channels"])
        assert g.number_of_nodes() == len(ref["nodes"])
        assert (g.number_of_edges() if g.is_directed() else 2 * g.number_of_edges()) == channels
        assert g.graph["name"] == spec
        kinds = {n["kind"] for n in ref["nodes"]}
        assert {d["kind"] for _, d in g.nodes(data=True)} == kinds


def test_export_node_link_round_trips_through_the_command(cli):
    assert cli("topo", "export", "fattree:8", "--format", "node-link", "-o", "f.json")[0] == 0
    _, a, _ = cli("topo", "info", "f.json")
    _, b, _ = cli("topo", "info", "fattree:8")
    assert a.replace("f.json", "fattree:8") == b


def test_bad_node_link_is_one_line_and_exit_2(cli):
    cases = {
        "dangling.json": ({"nodes": [{"id": 0}], "links": [{"source": 0, "target": 1}]},
                          "dangling.json: links[0].target: node 1 is not in \"nodes\""),
        "loop.json": ({"nodes": [{"id": "a"}], "links": [{"source": "a", "target": "a"}]},
                      "loop.json: links[0]: self-loop on node a (a channel joins two nodes)"),
        "split.json": ({"nodes": [{"id": 0}, {"id": 1}], "links": []},
                       "split.json: processors are not strongly connected: 0 cannot reach 1"),
    }
    for name, (data, message) in cases.items():
        write(cli, name, data)
        status, out, err = cli("topo", "info", name)
        assert (status, out, err) == (2, "", "ccsched: error: " + message + "\n"), name
