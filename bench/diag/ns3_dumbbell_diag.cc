// Diagnostic variant of /work/shared/peers/ns3_dumbbell.cc (same workload, same event trace) used
// to explain ns-3's goodput in bench/ns3_reference.json: counts, per sender, the data packets
// crossing G1->G2 and those whose sequence number crossed it before (retransmissions of
// segments not lost before the bottleneck), the congestion states each socket entered
// (4 = CA_LOSS, i.e. an RTO) and each sink's received bytes. Build like build.sh does:
//   NS3=/tmp/bench/venv/lib/python3.11/site-packages/ns3
//   g++ -O2 -std=c++20 -DNS3_LOG_ENABLE -DNS3_ASSERT_ENABLE -DNS3_BUILD_PROFILE_RELEASE -I$NS3/include \
//     ns3_dumbbell_diag.cc -o ns3_dumbbell_diag -L$NS3/lib64 -Wl,-rpath,$NS3/lib64 -lns3.44-applications \
//     -lns3.44-traffic-control -lns3.44-point-to-point -lns3.44-internet -lns3.44-network -lns3.44-core \
//     -lns3.44-stats -lns3.44-bridge -lns3.44-mobility
//   ./ns3_dumbbell_diag --queue=droptail
// ns-3.44 C++ dumbbell benchmark, compiled against the headers/libs shipped in the
// PyPI wheel (ns3==3.44.post0).  Same workload as ns3_dumbbell.py.
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include "ns3/ppp-header.h"
#include <chrono>
#include <map>
#include <set>
#include <cstdio>

using namespace ns3;
static std::map<uint32_t, std::set<uint32_t>> g_seen;
static std::map<uint32_t, uint64_t> g_pkts, g_dups;
static std::map<int, std::map<int,int>> g_states;
static std::map<int, uint32_t> g_maxcwnd;
static void OnState(int flow, TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t n) { g_states[flow][(int)n]++; }
static void OnCwnd(int flow, uint32_t, uint32_t n) { if (n > g_maxcwnd[flow]) g_maxcwnd[flow] = n; }
static void Hook(Ptr<Application> a, int flow) {
  Ptr<Socket> s = DynamicCast<BulkSendApplication>(a)->GetSocket();
  s->TraceConnectWithoutContext("CongState", MakeBoundCallback(&OnState, flow));
  s->TraceConnectWithoutContext("CongestionWindow", MakeBoundCallback(&OnCwnd, flow));
}
static void OnTx(Ptr<const Packet> p) {
  Ptr<Packet> c = p->Copy();
  PppHeader ppp; c->RemoveHeader(ppp);
  Ipv4Header ip; c->RemoveHeader(ip);
  TcpHeader t; c->RemoveHeader(t);
  if (c->GetSize() == 0) return;
  uint32_t port = ip.GetSource().Get();
  g_pkts[port]++;
  if (!g_seen[port].insert(t.GetSequenceNumber().GetValue()).second) g_dups[port]++;
}

int main(int argc, char** argv) {
  uint32_t nflows = 20;
  double simtime = 20.0;
  std::string queue = "red";
  uint32_t seg = 500;
  uint32_t seed = 1, run = 1;
  uint32_t tcpbuf = 1 << 20;  // ns-3 default is 131072
  CommandLine cmd;
  cmd.AddValue("nflows", "flows", nflows);
  cmd.AddValue("simtime", "seconds", simtime);
  cmd.AddValue("queue", "red|droptail", queue);
  cmd.AddValue("seg", "segment size", seg);
  cmd.AddValue("seed", "seed", seed);
  cmd.AddValue("run", "run", run);
  cmd.AddValue("tcpbuf", "TCP Snd/RcvBufSize bytes", tcpbuf);
  cmd.Parse(argc, argv);
  auto ts0 = std::chrono::steady_clock::now();
  RngSeedManager::SetSeed(seed);
  RngSeedManager::SetRun(run);

  Config::SetDefault("ns3::TcpL4Protocol::SocketType", StringValue("ns3::TcpNewReno"));
  Config::SetDefault("ns3::TcpL4Protocol::RecoveryType", StringValue("ns3::TcpClassicRecovery"));
  Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(seg));
  Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(false));
  Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(false));
  Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(tcpbuf));
  Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(tcpbuf));

  Config::SetDefault("ns3::RedQueueDisc::MinTh", DoubleValue(60));
  Config::SetDefault("ns3::RedQueueDisc::MaxTh", DoubleValue(200));
  Config::SetDefault("ns3::RedQueueDisc::QW", DoubleValue(0.002));
  Config::SetDefault("ns3::RedQueueDisc::LInterm", DoubleValue(10.0));
  Config::SetDefault("ns3::RedQueueDisc::Gentle", BooleanValue(false));
  Config::SetDefault("ns3::RedQueueDisc::ARED", BooleanValue(false));
  Config::SetDefault("ns3::RedQueueDisc::UseEcn", BooleanValue(false));
  Config::SetDefault("ns3::RedQueueDisc::MeanPktSize", UintegerValue(seg + 42));
  Config::SetDefault("ns3::RedQueueDisc::LinkBandwidth", DataRateValue(DataRate("70Mbps")));
  Config::SetDefault("ns3::RedQueueDisc::LinkDelay", TimeValue(MilliSeconds(5)));
  Config::SetDefault("ns3::RedQueueDisc::MaxSize", QueueSizeValue(QueueSize("300p")));
  Config::SetDefault("ns3::FifoQueueDisc::MaxSize", QueueSizeValue(QueueSize("300p")));

  NodeContainer senders, receivers, routers;
  senders.Create(nflows);
  receivers.Create(nflows);
  routers.Create(2);
  Ptr<Node> g1 = routers.Get(0), g2 = routers.Get(1);

  PointToPointHelper access, egress, bott;
  access.SetDeviceAttribute("DataRate", StringValue("100Mbps"));
  access.SetChannelAttribute("Delay", StringValue("2ms"));
  egress.SetDeviceAttribute("DataRate", StringValue("100Mbps"));
  egress.SetChannelAttribute("Delay", StringValue("5ms"));
  bott.SetDeviceAttribute("DataRate", StringValue("70Mbps"));
  bott.SetChannelAttribute("Delay", StringValue("5ms"));
  bott.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue("1p"));

  InternetStackHelper stack;
  stack.InstallAll();

  NetDeviceContainer bdev = bott.Install(g1, g2);
  TrafficControlHelper tch;
  tch.SetRootQueueDisc(queue == "red" ? "ns3::RedQueueDisc" : "ns3::FifoQueueDisc");
  QueueDiscContainer qdiscs = tch.Install(bdev.Get(0));

  Ipv4AddressHelper addr;
  addr.SetBase("10.0.0.0", "255.255.255.252");
  addr.Assign(bdev);
  NetDeviceContainer other;
  other.Add(bdev.Get(1));
  std::vector<Ipv4Address> rx;
  for (uint32_t i = 0; i < nflows; i++) {
    NetDeviceContainer d = access.Install(senders.Get(i), g1);
    std::string b1 = "10.1." + std::to_string(i) + ".0";
    addr.SetBase(b1.c_str(), "255.255.255.0");
    addr.Assign(d);
    other.Add(d);
    NetDeviceContainer d2 = egress.Install(g2, receivers.Get(i));
    std::string b2 = "10.2." + std::to_string(i) + ".0";
    addr.SetBase(b2.c_str(), "255.255.255.0");
    Ipv4InterfaceContainer ifc = addr.Assign(d2);
    other.Add(d2);
    rx.push_back(ifc.GetAddress(1));
  }
  TrafficControlHelper().Uninstall(other);
  Ipv4GlobalRoutingHelper::PopulateRoutingTables();

  uint16_t port = 5000;
  ApplicationContainer sinks;
  for (uint32_t i = 0; i < nflows; i++) {
    PacketSinkHelper sh("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
    sinks.Add(sh.Install(receivers.Get(i)));
    BulkSendHelper bh("ns3::TcpSocketFactory", InetSocketAddress(rx[i], port));
    bh.SetAttribute("MaxBytes", UintegerValue(0));
    bh.SetAttribute("SendSize", UintegerValue(seg));
    ApplicationContainer a = bh.Install(senders.Get(i));
    a.Start(Seconds(0.001 * i));
    a.Stop(Seconds(simtime));
    Simulator::Schedule(Seconds(0.001 * i + 0.0005), &Hook, a.Get(0), (int)i);
  }
  sinks.Start(Seconds(0));
  sinks.Stop(Seconds(simtime));
  Simulator::Stop(Seconds(simtime));
  double t_setup = std::chrono::duration<double>(std::chrono::steady_clock::now() - ts0).count();

  bdev.Get(0)->TraceConnectWithoutContext("PhyTxBegin", MakeCallback(&OnTx));
  uint64_t ev0 = Simulator::GetEventCount();
  auto t0 = std::chrono::steady_clock::now();
  Simulator::Run();
  double t_run = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  uint64_t events = Simulator::GetEventCount() - ev0;

  uint64_t totalRx = 0;
  for (uint32_t i = 0; i < nflows; i++) totalRx += DynamicCast<PacketSink>(sinks.Get(i))->GetTotalRx();
  QueueDisc::Stats st = qdiscs.Get(0)->GetStats();
  std::printf("{\"sim\": \"ns-3.44 C++ (wheel libs)\", \"queue\": \"%s\", \"tcpbuf\": %u, \"nflows\": %u, \"simtime_s\": %g, "
              "\"goodput_mbps\": %.3f, \"bottleneck_pkts_dequeued\": %u, \"bottleneck_pkts_received\": %u, "
              "\"bottleneck_pkts_dropped\": %u, \"events\": %lu, \"wall_run_s\": %.4f, \"wall_setup_s\": %.4f, "
              "\"events_per_s\": %.0f, \"bottleneck_pkts_per_wall_s\": %.0f, \"ns_per_event\": %.1f}\n",
              queue.c_str(), tcpbuf, nflows, simtime, totalRx * 8.0 / simtime / 1e6, st.nTotalDequeuedPackets,
              st.nTotalReceivedPackets, st.nTotalDroppedPackets, (unsigned long)events, t_run, t_setup,
              events / t_run, st.nTotalDequeuedPackets / t_run, t_run / events * 1e9);
  uint64_t tp=0, td=0; for (auto& [k,v]: g_pkts) { tp += v; td += g_dups[k]; std::printf("port %u pkts %lu dups %lu\n", k, (unsigned long)v, (unsigned long)g_dups[k]); }
  std::printf("total data pkts %lu dups %lu unique %lu\n", (unsigned long)tp, (unsigned long)td, (unsigned long)(tp-td));
  for (uint32_t i = 0; i < nflows; i++) std::printf("rx %u %lu\n", i, (unsigned long)DynamicCast<PacketSink>(sinks.Get(i))->GetTotalRx());
  for (auto& [f, m] : g_states) { std::printf("flow %d maxcwnd %u states:", f, g_maxcwnd[f]); for (auto& [k, v] : m) std::printf(" %d:%d", k, v); std::printf("\n"); }
  Simulator::Destroy();
  return 0;
}
