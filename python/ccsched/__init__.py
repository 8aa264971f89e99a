"""ccsched: contention-free schedules for collective communications (docs/PYTHON.md).

Describe a network (a spec string, a topology file or a NetworkX graph), ask for a
collective, and get a schedule with the fewest synchronized steps, its lower bound and
whether it is proven optimal::

    import networkx as nx
    import ccsched

    g = nx.cycle_graph(8)                      # any Graph or DiGraph
    s = ccsched.solve(g, "AAS", ports=1)
    s.steps, s.lower_bound, s.optimal          # (8, 8, True)
    assert s.verify() == []                    # every rule of docs/FORMATS.md holds
    s.cost(t0="1us", t1="0.5ns", bytes=1024).total_us

Bad input raises :class:`Error` (a ``ValueError``) whose text is the line the ``ccsched``
command prints after ``ccsched: error:``. Ctrl-C interrupts a solve (``KeyboardInterrupt``);
the GIL is released while it runs, so other Python threads go on.
"""

from collections import namedtuple
import json as _json
import os as _os

from . import _core

__all__ = [
    "Error", "InvalidInput", "InvalidParameter", "Unsupported",
    "Topology", "Schedule", "Transfer", "Bound", "Bounds", "Cost",
    "topology", "solve", "bounds", "load", "loads",
]

Error = _core.Error
Error.__doc__ = """Base of every error caused by what the caller gave; a ``ValueError``. Its text is
the line the ``ccsched`` command prints after ``ccsched: error:``."""
InvalidInput = _core.InvalidInput
InvalidInput.__doc__ = "Malformed or inconsistent input: a file, a spec string, a graph, a schedule."
InvalidParameter = _core.InvalidParameter
InvalidParameter.__doc__ = "A parameter out of its range: ``ports=0``, a root that is not a processor."
Unsupported = _core.Unsupported
Unsupported.__doc__ = "A well-formed request that cannot be carried out."
for _e in (Error, InvalidInput, InvalidParameter, Unsupported):
    _e.__module__ = "ccsched"

Transfer = namedtuple("Transfer", "step path messages blocks send recv")
Transfer.__doc__ = """One transfer of a schedule (docs/FORMATS.md "Schedule").

``step`` (1-based), ``path`` (the nodes from sender to receiver), ``messages`` (message
ids, see :attr:`Schedule.messages`). Reductions carry ``blocks`` and say what is sent
(``send``: "input" or "acc") and what the receiver does (``recv``: "reduce" or "copy");
these are ``None`` for other collectives."""

Bound = namedtuple("Bound", "name value argument source")
Bound.__doc__ = """A lower bound on the step count: its ``name``, ``value`` (steps), the
counting ``argument`` with its numbers, and its ``source`` (docs/BOUNDS.md)."""

Bounds = namedtuple("Bounds", "best bounds")
Bounds.__doc__ = """What :func:`bounds` returns: the ``best`` bound and every :class:`Bound`."""

Cost = namedtuple("Cost", "total_us step_us step_bytes")
Cost.__doc__ = """The time of a schedule under the linear model (docs/COST.md): the total
and each step's time in microseconds, and each step's longest transfer in bytes."""


class Topology:
    """A network: processors, switches and the directed channels between them.

    Made by :func:`topology`. Nodes are named as the caller named them: the NetworkX
    nodes of a graph, the labels of a spec string's network (Kautz words) or its integer
    ids.
    """

    def __init__(self, core, names=None):
        self._core = core
        if names is None:
            if core.has_labels:
                names = [core.display_name(v) for v in range(core.node_count)]
            else:
                names = list(range(core.node_count))
        self._names = list(names)
        self._ids = {name: v for v, name in enumerate(self._names)}

    @property
    def name(self):
        """The network's name ("kautz:3,2", a file's path, a graph's ``name``)."""
        return self._core.name

    @property
    def nodes(self):
        """Every node, processors and switches, in id order."""
        return list(self._names)

    @property
    def processors(self):
        """The processors, in id order."""
        return [self._names[v] for v in self._core.processors]

    @property
    def switches(self):
        """The switches (routing-only nodes), in id order."""
        return [n for v, n in enumerate(self._names) if not self._core.is_processor(v)]

    @property
    def channels(self):
        """The directed channels as ``(from, to)`` pairs; a full-duplex link is two."""
        return [(self._names[a], self._names[b]) for a, b in self._core.channels]

    @property
    def directed(self):
        """True unless every channel has its reverse."""
        return self._core.directed

    def to_networkx(self):
        """The network as a ``networkx.DiGraph`` (a ``Graph`` when every channel has its
        reverse), with node attribute ``kind`` ("processor" or "switch") and the graph's
        ``name``."""
        import networkx as nx
        g = nx.DiGraph() if self.directed else nx.Graph()
        g.graph["name"] = self.name
        for v, n in enumerate(self._names):
            g.add_node(n, kind="processor" if self._core.is_processor(v) else "switch")
        g.add_edges_from(self.channels)
        return g

    def to_json(self, format="ccsched"):
        """The network as text: "ccsched" (ccsched-topology/1, docs/FORMATS.md),
        "node-link" (what ``networkx.node_link_data`` writes), "dot", "edges" or "anynet"."""
        return self._core.write("json" if format == "ccsched" else format)

    def _id(self, node):
        """The text the library knows a node by (its label or decimal id)."""
        if node in self._ids:
            return self._core.display_name(self._ids[node])
        return str(node)

    def __repr__(self):
        return "<ccsched.Topology {!r}: {} processors, {} switches, {} channels>".format(
            self.name, len(self.processors), len(self.switches), len(self._core.channels))


def _node_link(graph):
    """A NetworkX graph as node-link data with JSON-safe ids, and the graph's nodes."""
    names = list(graph.nodes)
    def json_id(node):
        # Integers and strings are JSON ids as they are; tuples (grid graphs) and other
        # hashables are named by str(); the library refuses two nodes with one name.
        if isinstance(node, (int, str)) and not isinstance(node, bool):
            return node
        return str(node)
    ids = [json_id(n) for n in names]
    index = {n: ids[v] for v, n in enumerate(names)}
    data = {
        "directed": graph.is_directed(),
        "multigraph": graph.is_multigraph(),
        "graph": {"name": str(graph.graph.get("name", "") or "networkx graph")},
        "nodes": [{"id": ids[v], "kind": graph.nodes[n].get("kind", "processor")}
                  for v, n in enumerate(names)],
        "links": [{"source": index[a], "target": index[b]} for a, b in graph.edges()],
    }
    return data, names


def topology(network):
    """A :class:`Topology` from a spec string ("kautz:3,2", "torus:4x4"; ``ccsched topo
    list``), a topology file (.json — ccsched-topology/1 or NetworkX node-link —, .dot,
    .gv, .edges, .anynet) or a ``networkx.Graph`` / ``DiGraph``.

    A graph's nodes become processors, unless their ``kind`` attribute says "switch"; an
    undirected edge is a full-duplex link (two channels). Node names are kept: schedules
    name the same nodes. Raises :class:`Error` with the command's message for an unknown
    spec, an unreadable file, a self-loop or processors that cannot all reach each other.
    """
    if isinstance(network, Topology):
        return network
    if isinstance(network, (str, _os.PathLike)):
        return Topology(_core.load_topology(_os.fspath(network)))
    if hasattr(network, "nodes") and hasattr(network, "edges") and hasattr(network, "is_directed"):
        data, names = _node_link(network)
        core = _core.read_topology(_json.dumps(data), "node-link",
                                   data["graph"]["name"])
        return Topology(core, names)
    raise TypeError("expected a spec string, a path or a networkx graph, got {}".format(
        type(network).__name__))


def _ports(ports):
    if ports is None:
        return None
    if isinstance(ports, str):
        if ports == "all":
            return 0
        try:
            ports = int(ports)
        except ValueError:
            raise InvalidParameter("ports: expected a positive integer or 'all', got '{}'"
                                   .format(ports)) from None
    if isinstance(ports, bool) or not isinstance(ports, int) or ports < 1:
        raise InvalidParameter("ports: expected a positive integer or 'all', got '{}'"
                               .format(ports))
    return ports


def _names(topo, nodes):
    if nodes is None:
        return []
    if isinstance(nodes, str):
        nodes = [p for p in nodes.split(",") if p]
    return [topo._id(n) for n in nodes]


def _problem(topo, cc, ports, root, senders, receivers, blocks, faults, routing, switching,
             combining, shift, messages):
    faults = [faults] if isinstance(faults, str) else list(faults)
    fault_text = []
    for f in faults:
        if isinstance(f, str):
            fault_text.append(f)
        else:
            a, b = f
            fault_text.append("{}-{}".format(topo._id(a), topo._id(b)))
    return dict(
        cc=str(cc), ports=_ports(ports), root="" if root is None else topo._id(root),
        senders=_names(topo, senders), receivers=_names(topo, receivers),
        blocks=None if blocks is None else int(blocks), shift=int(shift),
        messages_file="" if messages is None else _os.fspath(messages),
        faults=fault_text, routing=str(routing), switching=str(switching),
        combining=bool(combining))


class Schedule:
    """A schedule: transfers in synchronized steps, with its lower bound and its claim.

    ``steps`` is the step count (``None`` when the solve found no schedule: ``status``
    and ``reason`` say why), ``lower_bound`` a bound valid under the model as written,
    ``optimal`` True only with a proof under that model, and ``optimal_within`` the
    restriction ("direct delivery") inside which it is proven optimal when it is not
    proven under the model (docs/RELIABILITY.md, "What optimal promises").
    """

    def __init__(self, core, topo=None):
        self._core = core
        self._topology = topo

    status = property(lambda self: self._core.status,
                      doc='"feasible" when a schedule was found, else "infeasible" or "unknown".')
    steps = property(lambda self: self._core.steps, doc="Number of steps, or None.")
    lower_bound = property(lambda self: self._core.lower_bound,
                           doc="Best lower bound under the model as written.")
    optimal = property(lambda self: self._core.optimal,
                       doc="True when proven optimal under the model as written.")
    optimal_within = property(lambda self: self._core.optimal_within,
                              doc='The restriction it is proven optimal within, or None.')
    direct_delivery_bound = property(
        lambda self: self._core.direct_delivery_bound,
        doc="Scatters: the bound that holds only with direct delivery, when above lower_bound.")
    reason = property(lambda self: self._core.reason, doc="Why optimal, or why not proven.")
    engine = property(lambda self: self._core.engine, doc="The engine that found it.")
    seconds = property(lambda self: self._core.seconds, doc="Time the solve took.")
    collective = property(lambda self: self._core.collective, doc='"AAS", "OAB", ...')
    model = property(lambda self: self._core.model,
                     doc="ports, switching, routing and combining of the model.")

    @property
    def bounds(self):
        """Every lower bound computed by the solve (a list of :class:`Bound`)."""
        return [Bound(*b) for b in self._core.bounds]

    @property
    def topology(self):
        """The network of the schedule (faulty channels removed)."""
        if self._topology is None:
            self._topology = Topology(self._core.topology)
        return self._topology

    def _name(self, v):
        return self.topology._names[v]

    @property
    def messages(self):
        """The messages as ``(origin, [targets])``, indexed by message id (empty for a
        reduction)."""
        return [(self._name(o), [self._name(t) for t in ts]) for o, ts in self._core.messages]

    @property
    def transfers(self):
        """Every :class:`Transfer`, in the order of the schedule document."""
        return [Transfer(step, [self._name(v) for v in path], list(messages), blocks, send, recv)
                for step, path, messages, blocks, send, recv in self._core.transfers]

    def to_json(self):
        """The ccsched-schedule/1 document (docs/FORMATS.md) that ``ccsched verify``,
        ``cost``, ``render`` and ``codegen`` read."""
        return self._core.to_json()

    def save(self, path):
        """Writes :meth:`to_json` to ``path``."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.to_json())

    def table(self):
        """The schedule in the seeds' table layout, as ``ccsched solve --table`` prints it."""
        return self._core.table()

    def verify(self):
        """The violations of the validity rules of docs/FORMATS.md, one line each, as
        ``ccsched verify`` prints them; an empty list means valid."""
        return self._core.verify()

    def cost(self, t0, t1, bytes, th=0, tc=None):
        """The time under the seeds' linear model, sum over steps of t0 + m_i*t1
        (docs/COST.md), as ``ccsched cost``: ``t0`` a time ("1us" or seconds), ``t1`` a
        time per byte ("0.5ns", "2GBps" or seconds per byte), ``bytes`` per message
        (per input vector for a reduction), ``th`` a per-hop delay, ``tc`` the time to add a
        byte (reductions only). Returns a :class:`Cost`."""
        total, step_us, step_bytes = self._core.cost(t0, t1, bytes, th, tc)
        return Cost(total, list(step_us), list(step_bytes))

    def __repr__(self):
        if self.steps is None:
            return "<ccsched.Schedule: none found ({}: {})>".format(self.status, self.reason)
        return "<ccsched.Schedule {} on {!r}: {} steps, lower bound {}, {}>".format(
            self.collective, self.topology.name, self.steps, self.lower_bound,
            "optimal" if self.optimal else "not proven optimal")


def solve(network, cc, *, ports=None, root=None, senders=None, receivers=None, blocks=None,
          faults=(), routing="minimal", switching="wormhole", combining=False, shift=1,
          messages=None, engine="auto", steps=None, time_limit=None, relay_time_limit=60.0,
          seed=1):
    """Designs a schedule with the fewest steps, as ``ccsched solve`` does.

    ``network``: a :class:`Topology`, a spec string, a path or a NetworkX graph
    (:func:`topology`). ``cc``: "OAB", "AAB", "OAS", "AAS", "AOG", "MNB", "MNS", "PERM",
    "CUSTOM", "REDUCE", "ALLREDUCE", "REDUCESCATTER" or "SCAN".

    ``ports``: k of the k-port model, "all", or None for the network's default (all-port
    on direct networks, one port on multistage ones, as the command). ``root`` (OAB, OAS,
    AOG, REDUCE), ``senders`` and ``receivers`` (MNB, MNS, reductions) are nodes as the
    network names them. ``blocks``: reductions' blocks per input. ``faults``: links out of
    service, as ``(u, v)`` pairs or "U-V" / "U->V" strings. ``routing``: "minimal" or
    "nonminimal[:H]"; ``switching``: "wormhole" or "store-and-forward"; ``shift`` and
    ``messages`` (a file) for PERM and CUSTOM.

    ``engine``: "auto", "sat", "greedy", "umda" or "hgsa"; ``steps``: answer for exactly
    this step count; ``time_limit`` (seconds; None: none up to 256 processors, 45 s above)
    returns the best schedule found by then;
    ``relay_time_limit`` bounds the scatters' search with relays; ``seed`` fixes every
    random choice (same seed, same schedule).

    Returns a :class:`Schedule` (``steps`` None when none was found). Raises :class:`Error`
    for bad input and ``KeyboardInterrupt`` on Ctrl-C.
    """
    topo = topology(network)
    problem = _problem(topo, cc, ports, root, senders, receivers, blocks, faults, routing,
                       switching, combining, shift, messages)
    core = _core.solve(topo._core, engine=str(engine), steps=steps,
                       time_limit=None if time_limit is None else float(time_limit),
                       relay_time_limit=float(relay_time_limit), seed=int(seed), **problem)
    # Faults renumber no node, so the schedule names its nodes as the network does.
    names = topo._names if core.found else None
    return Schedule(core, Topology(core.topology, names) if names is not None else None)


def bounds(network, cc, *, ports=None, root=None, senders=None, receivers=None, blocks=None,
           faults=(), routing="minimal", switching="wormhole", combining=False, shift=1,
           messages=None, direct=False):
    """Every lower bound on the step count, with its argument (docs/BOUNDS.md), as
    ``ccsched bounds``; the arguments are those of :func:`solve`. ``direct`` assumes each
    scatter message is one transfer (the seeds' model): stronger, valid only there.
    Returns :class:`Bounds`."""
    topo = topology(network)
    problem = _problem(topo, cc, ports, root, senders, receivers, blocks, faults, routing,
                       switching, combining, shift, messages)
    problem.pop("cc")
    best, found = _core.bounds(topo._core, str(cc), *problem.values(), bool(direct))
    return Bounds(best, [Bound(*b) for b in found])


def load(path):
    """A :class:`Schedule` from a ccsched-schedule/1 file (``ccsched solve -o``)."""
    return Schedule(_core.load_schedule(_os.fspath(path)))


def loads(text):
    """A :class:`Schedule` from the text of a ccsched-schedule/1 document."""
    return Schedule(_core.read_schedule(text, "<string>"))
