// qoslab's own ns-3 3.44 program for the peer dumbbell workload (described in
// /work/shared/peers/README.md), written for the TCP validation of issue 3: unlike the
// shared timing benchmark it prints every flow's goodput (for Jain's fairness index) and can
// switch SACK on (`--sack=1`) to separate TCP-model agreement from ns-3's non-SACK
// behaviour after a retransmission timeout. It is a correctness reference, not a timing
// benchmark (bench/run.sh times the shared peer program).
//
// Build and run: bash bench/ns3/run.sh (compiles against the ns3==3.44.post0 wheel that
// /work/shared/peers/build.sh installs under $BENCH, default /tmp/bench).
//
// Workload: N bulk TCP flows S_i -> D_i; S_i -(100 Mb/s, 2 ms)- G1 -(70 Mb/s, 5 ms)- G2
// -(100 Mb/s, 5 ms)- D_i; bottleneck queue disc on G1's device: RED (60/200 p, max_p 0.1,
// w_q 0.002, not gentle, no ECN, 300 p limit) or FIFO drop-tail 300 p; the bottleneck
// devices hold 1 packet so the queue disc holds the backlog; every other device keeps its
// default 100 p DropTailQueue and no queue disc. TcpNewReno with classic recovery,
// 500 B segments, timestamps off, delayed ACK every 2nd segment, IW 10, 1 MiB buffers;
// flow i starts at i ms; goodput = bytes received by each PacketSink / simtime.
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include <cstdio>
#include <string>
#include <vector>

using namespace ns3;

int
main(int argc, char** argv)
{
    uint32_t flows = 20;
    double seconds = 20.0;
    std::string queueKind = "red";
    uint32_t segment = 500;
    uint32_t run = 1;
    bool sack = false;
    uint32_t buffer = 1 << 20;
    CommandLine cmd;
    cmd.AddValue("nflows", "number of bulk flows", flows);
    cmd.AddValue("simtime", "simulated seconds", seconds);
    cmd.AddValue("queue", "bottleneck queue: red or droptail", queueKind);
    cmd.AddValue("seg", "TCP segment size (bytes)", segment);
    cmd.AddValue("run", "RNG run number (seed is 1)", run);
    cmd.AddValue("sack", "enable SACK (RFC 2018) on every socket", sack);
    cmd.AddValue("tcpbuf", "socket send and receive buffer (bytes)", buffer);
    cmd.Parse(argc, argv);
    if (queueKind != "red" && queueKind != "droptail")
    {
        std::fprintf(stderr, "--queue must be red or droptail, not %s\n", queueKind.c_str());
        return 2;
    }
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(run);

    Config::SetDefault("ns3::TcpL4Protocol::SocketType", StringValue("ns3::TcpNewReno"));
    Config::SetDefault("ns3::TcpL4Protocol::RecoveryType",
                       StringValue("ns3::TcpClassicRecovery"));
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(segment));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(buffer));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(buffer));
    Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(sack));
    Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(false));

    NodeContainer src;
    src.Create(flows);
    NodeContainer dst;
    dst.Create(flows);
    NodeContainer gw;
    gw.Create(2);
    InternetStackHelper stack;
    stack.InstallAll();

    PointToPointHelper access;
    access.SetDeviceAttribute("DataRate", StringValue("100Mbps"));
    access.SetChannelAttribute("Delay", StringValue("2ms"));
    PointToPointHelper egress;
    egress.SetDeviceAttribute("DataRate", StringValue("100Mbps"));
    egress.SetChannelAttribute("Delay", StringValue("5ms"));
    PointToPointHelper core;
    core.SetDeviceAttribute("DataRate", StringValue("70Mbps"));
    core.SetChannelAttribute("Delay", StringValue("5ms"));
    core.SetQueue("ns3::DropTailQueue", "MaxSize", QueueSizeValue(QueueSize("1p")));

    Ipv4AddressHelper ip;
    std::vector<NetDeviceContainer> links;
    NetDeviceContainer bottleneck = core.Install(gw.Get(0), gw.Get(1));
    ip.SetBase("10.255.0.0", "255.255.255.0");
    ip.Assign(bottleneck);
    links.push_back(bottleneck);
    std::vector<Ipv4Address> sinkAddr;
    for (uint32_t i = 0; i < flows; ++i)
    {
        NetDeviceContainer a = access.Install(src.Get(i), gw.Get(0));
        NetDeviceContainer e = egress.Install(gw.Get(1), dst.Get(i));
        ip.SetBase(Ipv4Address((10u << 24) | (1u << 16) | (i << 8)), "255.255.255.0");
        ip.Assign(a);
        ip.SetBase(Ipv4Address((10u << 24) | (2u << 16) | (i << 8)), "255.255.255.0");
        Ipv4InterfaceContainer ei = ip.Assign(e);
        sinkAddr.push_back(ei.GetAddress(1));
        links.push_back(a);
        links.push_back(e);
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    // Address assignment installs a default queue disc on every device: remove them all,
    // then put the one we want on G1's side of the bottleneck.
    TrafficControlHelper none;
    for (auto& c : links)
    {
        none.Uninstall(c);
    }
    TrafficControlHelper tch;
    if (queueKind == "red")
    {
        tch.SetRootQueueDisc("ns3::RedQueueDisc",
                             "MinTh", DoubleValue(60),
                             "MaxTh", DoubleValue(200),
                             "LInterm", DoubleValue(10),
                             "QW", DoubleValue(0.002),
                             "Gentle", BooleanValue(false),
                             "ARED", BooleanValue(false),
                             "UseEcn", BooleanValue(false),
                             "MeanPktSize", UintegerValue(segment + 42),
                             "LinkBandwidth", DataRateValue(DataRate("70Mbps")),
                             "LinkDelay", TimeValue(MilliSeconds(5)),
                             "MaxSize", QueueSizeValue(QueueSize("300p")));
    }
    else
    {
        tch.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize", QueueSizeValue(QueueSize("300p")));
    }
    QueueDiscContainer qd = tch.Install(bottleneck.Get(0));

    const uint16_t port = 5000;
    std::vector<Ptr<PacketSink>> sinks;
    for (uint32_t i = 0; i < flows; ++i)
    {
        PacketSinkHelper sh("ns3::TcpSocketFactory",
                            InetSocketAddress(Ipv4Address::GetAny(), port));
        ApplicationContainer s = sh.Install(dst.Get(i));
        s.Start(Seconds(0));
        sinks.push_back(DynamicCast<PacketSink>(s.Get(0)));
        BulkSendHelper bh("ns3::TcpSocketFactory", InetSocketAddress(sinkAddr[i], port));
        bh.SetAttribute("MaxBytes", UintegerValue(0));
        ApplicationContainer b = bh.Install(src.Get(i));
        b.Start(MilliSeconds(i));
        b.Stop(Seconds(seconds));
    }

    Simulator::Stop(Seconds(seconds));
    Simulator::Run();

    std::vector<double> mbps;
    double total = 0.0;
    double sumSq = 0.0;
    for (auto& s : sinks)
    {
        double m = s->GetTotalRx() * 8.0 / seconds / 1e6;
        mbps.push_back(m);
        total += m;
        sumSq += m * m;
    }
    double jain = sumSq > 0 ? total * total / (flows * sumSq) : 0.0;
    QueueDisc::Stats st = qd.Get(0)->GetStats();
    std::printf("{\"sim\": \"ns-3.44 (bench/ns3/dumbbell_flows.cc)\", \"queue\": \"%s\", "
                "\"sack\": %s, \"run\": %u, \"nflows\": %u, \"simtime_s\": %g, "
                "\"goodput_mbps\": %.4f, \"jain\": %.4f, \"bottleneck_pkts_dequeued\": %u, "
                "\"bottleneck_pkts_dropped\": %u, \"flow_goodput_mbps\": [",
                queueKind.c_str(), sack ? "true" : "false", run, flows, seconds, total, jain,
                st.nTotalDequeuedPackets, st.nTotalDroppedPackets);
    for (size_t i = 0; i < mbps.size(); ++i)
    {
        std::printf("%s%.4f", i ? ", " : "", mbps[i]);
    }
    std::printf("]}\n");
    Simulator::Destroy();
    return 0;
}
