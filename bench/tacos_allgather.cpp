// Runs TACOS (astra-sim/tacos, MIT licence; Won et al., "TACOS: Topology-Aware Collective
// Algorithm Synthesizer for Distributed Machine Learning", MICRO 2024) on an all-gather, for
// docs/BENCHMARKS.md "By message size": built by bench/by_size.sh against a TACOS source
// tree (TACOS_DIR), with g++ alone (TACOS asks for CMake 3.26; Debian 12 has 3.25, and its
// sources need nothing but the C++17 standard library). Not part of the ccsched build.
//
//   tacos_allgather torus 32x32 | mesh 32x32 | hypercube 10   CHUNK_BYTES CHUNKS ALPHA_US BW_GIBPS RUNS
//
// prints one line per run: the synthesized all-gather's time in microseconds, where every
// processor contributes CHUNKS chunks of CHUNK_BYTES bytes. TACOS draws its random choices
// from std::random_device (synthesizer.h), so runs differ and cannot be seeded from here;
// the script reports the best and the worst of RUNS runs.
//
// TACOS's model, as its code reads (time_expanded_network.cpp, synthesizer.cpp): every
// directed link carries one chunk at a time, store and forward, in alpha + chunk/bandwidth;
// all links of a processor work at once (no port limit); a chunk crosses one link per
// transfer, greedily matched to a link whose sender holds it, earliest arrival first.
#include <tacos/collective/all_gather.h>
#include <tacos/synthesizer/synthesizer.h>
#include <tacos/topology/mesh_2d.h>
#include <tacos/topology/torus_2d.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

namespace {

// The binary hypercube of 2^d processors (TACOS ships a 3-D mesh it calls Hypercube3D);
// built through TACOS's own Topology interface, as its README shows for new networks.
class Hypercube final : public tacos::Topology {
  public:
    Hypercube(int d, Bandwidth bandwidth, Latency latency) {
        setNpusCount_(1 << d);
        for (int v = 0; v < (1 << d); ++v)
            for (int b = 0; b < d; ++b)
                if (v < (v ^ (1 << b))) connect_(v, v ^ (1 << b), bandwidth, latency, true);
    }
};

}  // namespace

int main(int argc, char** argv) {
    if (argc != 8) {
        std::fprintf(stderr,
                     "usage: %s torus|mesh|hypercube WxH|d CHUNK_BYTES CHUNKS ALPHA_US BW_GIBPS RUNS\n",
                     argv[0]);
        return 2;
    }
    const std::string family = argv[1];
    const std::string size = argv[2];
    const long long chunk = std::atoll(argv[3]);
    const int chunks = std::atoi(argv[4]);
    const double alpha = std::atof(argv[5]);
    const double bandwidth = std::atof(argv[6]);
    const int runs = std::atoi(argv[7]);
    std::unique_ptr<tacos::Topology> topology;
    if (family == "hypercube") {
        topology = std::make_unique<Hypercube>(std::atoi(size.c_str()), bandwidth, alpha);
    } else {
        const auto x = size.find('x');
        const int w = std::atoi(size.substr(0, x).c_str());
        const int h = std::atoi(size.substr(x + 1).c_str());
        if (family == "torus")
            topology = std::make_unique<tacos::Torus2D>(w, h, bandwidth, alpha);
        else
            topology = std::make_unique<tacos::Mesh2D>(w, h, bandwidth, alpha);
    }
    const auto collective = tacos::AllGather(topology->npusCount(), chunks);
    for (int r = 0; r < runs; ++r) {
        auto synthesizer = tacos::Synthesizer();
        std::printf("%.6f\n", synthesizer.solve(*topology, collective, chunk));
        std::fflush(stdout);
    }
    return 0;
}
