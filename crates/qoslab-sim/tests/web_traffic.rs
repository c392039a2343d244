//! Tests of the ns-2-style web traffic generator (`traffic::web`).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use proptest::prelude::*;
use qoslab_algo::rng::ScriptedUniform;
use qoslab_algo::{ConfigError, Duration, RandomSource, Rng, Time};
use qoslab_sim::traffic::web::{
    Dist, IgnoredCompletions, Request, RequestLeg, SessionStart, SizeUnit, WebTraffic,
    WebTrafficParams, WebTrafficSettings,
};

fn web(s: WebTrafficSettings, seed: u64) -> WebTraffic {
    WebTraffic::new(
        WebTrafficParams::new(s).expect("valid settings"),
        Rng::from_seed(seed),
    )
}

/// One page finishing: (session, finished page, time of its last completion).
type PageEnd = (u32, u32, Time);

/// A transfer in flight: (completion time, tie-break sequence, session, page, object).
type InFlight = Reverse<(Time, u64, u32, u32, u32)>;

/// A minimal engine: every request completes `delay(request)` after it was polled.
/// Returns the requests in poll order (with the poll time) and the page ends.
fn drive(
    w: &mut WebTraffic,
    mut delay: impl FnMut(&Request) -> Duration,
    until: Time,
) -> (Vec<(Time, Request)>, Vec<PageEnd>) {
    let mut pending: BinaryHeap<InFlight> = BinaryHeap::new();
    let mut seq = 0u64;
    let mut log = Vec::new();
    let mut ends = Vec::new();
    loop {
        let tw = w.next_event_time();
        let tc = pending.peek().map(|Reverse(c)| c.0);
        let t = match (tw, tc) {
            (None, None) => break,
            (Some(a), None) | (None, Some(a)) => a,
            (Some(a), Some(b)) => a.min(b),
        };
        if t > until {
            break;
        }
        while pending.peek().is_some_and(|Reverse(c)| c.0 <= t) {
            let Reverse((_, _, s, p, o)) = pending.pop().unwrap();
            let before = w.stats().pages_finished;
            w.on_transfer_complete(t, s, p, o);
            if w.stats().pages_finished > before {
                ends.push((s, p, t));
            }
        }
        while let Some(r) = w.poll(t) {
            pending.push(Reverse((t + delay(&r), seq, r.session, r.page, r.object)));
            seq += 1;
            log.push((t, r));
        }
    }
    (log, ends)
}

fn constant(value: f64) -> Dist {
    Dist::Constant { value }
}

/// One session, two pages of three 4-segment objects, constant times, starting at 5 s.
fn deterministic_settings() -> WebTrafficSettings {
    WebTrafficSettings {
        sessions: 1,
        pages_per_session: 2,
        inter_page: constant(1.0),
        objects_per_page: constant(3.0),
        inter_object: constant(0.01),
        object_size: constant(4.0),
        size_unit: SizeUnit::Segments { bytes: 512 },
        session_start: SessionStart::Uniform {
            from: Time::from_secs(5),
            to: Time::from_secs(5),
        },
        clients: 1,
        servers: 1,
        request: RequestLeg::Segment,
    }
}

#[test]
fn exact_timeline_with_constant_laws() {
    // Hand computation (module doc, "The model"):
    //  page 0 starts at the session start 5 s: objects at 5.000, 5.010, 5.020 s
    //    (inter-object 10 ms after each *launch*), each 4 segments x 512 B = 2048 B;
    //  completions at 5.5, 5.6, 5.7 s -> page 0 done at 5.7 s;
    //  page 1 starts 1 s later: 6.700, 6.710, 6.720 s; done at 7.0 s -> session finished.
    let mut w = web(deterministic_settings(), 1);
    assert_eq!(w.next_event_time(), Some(Time::from_secs(5)));
    assert_eq!(w.poll(Time::from_millis(4_999)), None);
    let r = w.poll(Time::from_secs(5)).unwrap();
    assert_eq!(
        r,
        Request {
            at: Time::from_secs(5),
            session: 0,
            page: 0,
            object: 0,
            client: 0,
            server: 0,
            bytes: 2048
        }
    );
    assert_eq!(w.poll(Time::from_secs(5)), None);
    assert_eq!(w.next_event_time(), Some(Time::from_millis(5_010)));
    // Object 1 is requested although object 0 has not completed (ns-2 WebPage timer).
    let r = w.poll(Time::from_millis(5_010)).unwrap();
    assert_eq!((r.page, r.object, r.at), (0, 1, Time::from_millis(5_010)));
    let r = w.poll(Time::from_millis(5_020)).unwrap();
    assert_eq!((r.page, r.object, r.at), (0, 2, Time::from_millis(5_020)));
    // All three requested: nothing until the page completes.
    assert_eq!(w.next_event_time(), None);
    w.on_transfer_complete(Time::from_millis(5_500), 0, 0, 0);
    w.on_transfer_complete(Time::from_millis(5_600), 0, 0, 2);
    assert_eq!(w.next_event_time(), None);
    w.on_transfer_complete(Time::from_millis(5_700), 0, 0, 1);
    // Inter-page time from the page's end (ns-2 interPageOption_ = 1): 5.7 + 1 = 6.7 s.
    assert_eq!(w.next_event_time(), Some(Time::from_millis(6_700)));
    let times: Vec<_> = [6_700, 6_710, 6_720]
        .iter()
        .map(|&ms| {
            let r = w.poll(Time::from_millis(ms)).unwrap();
            (r.page, r.object, r.at.as_nanos(), r.bytes)
        })
        .collect();
    assert_eq!(
        times,
        vec![
            (1, 0, 6_700_000_000, 2048),
            (1, 1, 6_710_000_000, 2048),
            (1, 2, 6_720_000_000, 2048)
        ]
    );
    for o in 0..3 {
        assert!(!w.is_finished());
        w.on_transfer_complete(Time::from_secs(7), 0, 1, o);
    }
    assert!(w.is_finished());
    assert_eq!(w.next_event_time(), None);
    assert_eq!(w.poll(Time::from_secs(1000)), None);
    let st = w.stats();
    assert_eq!((st.sessions_started, st.sessions_finished), (1, 1));
    assert_eq!((st.pages_started, st.pages_finished), (2, 2));
    assert_eq!(
        (st.requests, st.transfers_completed, st.bytes_requested),
        (6, 6, 6 * 2048)
    );
    assert_eq!(st.ignored, IgnoredCompletions::default());
}

#[test]
fn a_late_poll_keeps_the_scheduled_instants() {
    // Polling at 5.1 s instead of 5.0 s: objects are still due at 5.000 / 5.010 / 5.020 s
    // (timers run from the due instant, not from the poll), and all are returned at once.
    let mut w = web(deterministic_settings(), 1);
    let ats: Vec<_> = std::iter::from_fn(|| w.poll(Time::from_millis(5_100)))
        .map(|r| r.at.as_nanos())
        .collect();
    assert_eq!(ats, vec![5_000_000_000, 5_010_000_000, 5_020_000_000]);
}

#[test]
fn stray_completions_are_ignored_and_counted() {
    let mut w = web(deterministic_settings(), 1);
    let t = Time::from_secs(5);
    w.poll(t).unwrap(); // page 0, object 0 launched
    w.on_transfer_complete(t, 7, 0, 0); // no session 7
    w.on_transfer_complete(t, 0, 1, 0); // page 1 is not current
    w.on_transfer_complete(t, 0, 0, 1); // object 1 not launched yet
    w.on_transfer_complete(t, 0, 0, 0); // valid
    w.on_transfer_complete(t, 0, 0, 0); // more completions than launches
    let st = w.stats();
    assert_eq!(
        st.ignored,
        IgnoredCompletions {
            unknown_session: 1,
            not_current_page: 1,
            unexpected_object: 2
        }
    );
    assert_eq!(st.transfers_completed, 1);
    // The page is not done: objects 1 and 2 are still to come.
    assert_eq!(w.next_event_time(), Some(Time::from_millis(5_010)));
}

#[test]
fn an_early_completion_time_does_not_move_events_back() {
    // The completion is reported "at 1 s" after the engine has polled at 5.02 s: the next page
    // is scheduled from the latest time seen, 5.02 + 1 = 6.02 s.
    let mut w = web(deterministic_settings(), 1);
    while w.poll(Time::from_millis(5_020)).is_some() {}
    for o in 0..3 {
        w.on_transfer_complete(Time::from_secs(1), 0, 0, o);
    }
    assert_eq!(w.next_event_time(), Some(Time::from_millis(6_020)));
}

#[test]
fn draws_match_hand_computation() {
    // U = 0.75, so 1 - U = 0.25 in every law.
    let mut u = ScriptedUniform::new(&[0.75]);
    // Exponential mean 2: -2 ln 0.25 = 2 x 1.3862943611 = 2.7725887222.
    let e = Dist::Exponential { mean: 2.0 }.sample(&mut u);
    assert!((e - 2.772_588_722_2).abs() < 1e-9, "{e}");
    // ParetoII mean 60 shape 1.05 (Floyd's web.tcl objects): scale 60 x 0.05 = 3;
    // 0.25^(-1/1.05) = exp(1.3862944 / 1.05) = exp(1.3202804) = 3.7444710;
    // 3 x (3.7444710 - 1) = 8.2334129 segments.
    let p2 = Dist::ParetoII {
        mean: 60.0,
        shape: 1.05,
    }
    .sample(&mut u);
    assert!((p2 - 8.233_412_9).abs() < 1e-6, "{p2}");
    // Pareto mean 1.5 shape 3: x_m = 1.5 x 2 / 3 = 1; 1 / 0.25^(1/3) = 4^(1/3) = 1.5874011.
    let p1 = Dist::Pareto {
        mean: 1.5,
        shape: 3.0,
    }
    .sample(&mut u);
    assert!((p1 - 1.587_401_052).abs() < 1e-8, "{p1}");
    // Uniform [2, 4): 2 + 2 x 0.75 = 3.5.
    assert_eq!(Dist::Uniform { lo: 2.0, hi: 4.0 }.sample(&mut u), 3.5);
    assert_eq!(constant(7.25).sample(&mut u), 7.25);
}

#[test]
fn draw_means_over_many_samples() {
    let mut r = Rng::from_seed(11);
    let n = 200_000;
    let mut mean = |d: Dist| (0..n).map(|_| d.sample(&mut r)).sum::<f64>() / n as f64;
    // Exponential mean 1: standard error 1/sqrt(n) = 0.0022.
    let e = mean(Dist::Exponential { mean: 1.0 });
    assert!((e - 1.0).abs() < 0.015, "{e}");
    // ParetoII mean 10 shape 2.5: scale 15, variance 15^2 x 2.5 / (1.5^2 x 0.5) = 500,
    // standard error sqrt(500 / n) = 0.05.
    let p2 = mean(Dist::ParetoII {
        mean: 10.0,
        shape: 2.5,
    });
    assert!((p2 - 10.0).abs() < 0.3, "{p2}");
    // Pareto mean 1.5 shape 3 (variance 0.75): standard error 0.0019.
    let p1 = mean(Dist::Pareto {
        mean: 1.5,
        shape: 3.0,
    });
    assert!((p1 - 1.5).abs() < 0.02, "{p1}");
    let u = mean(Dist::Uniform { lo: 1.0, hi: 3.0 });
    assert!((u - 2.0).abs() < 0.01, "{u}");
}

/// Settings for the statistical tests: many sessions and pages, random everything.
fn statistical_settings() -> WebTrafficSettings {
    WebTrafficSettings {
        sessions: 200,
        pages_per_session: 100,
        inter_page: Dist::Exponential { mean: 0.5 },
        objects_per_page: Dist::Exponential { mean: 3.0 },
        inter_object: Dist::Exponential { mean: 0.01 },
        object_size: Dist::ParetoII {
            mean: 10.0,
            shape: 2.5,
        },
        size_unit: SizeUnit::Segments { bytes: 512 },
        session_start: SessionStart::Uniform {
            from: Time::ZERO,
            to: Time::from_secs(10),
        },
        clients: 10,
        servers: 10,
        request: RequestLeg::Segment,
    }
}

#[test]
fn generated_means_match_the_laws() {
    let s = statistical_settings();
    let mut w = web(s, 3);
    let (log, ends) = drive(&mut w, |_| Duration::from_millis(30), Time::NEVER);
    assert!(w.is_finished());

    // Object size: E[max(1, ceil X)] = E[ceil X] = sum_{k>=0} P(X > k) = sum (1 + k/15)^-2.5
    // for ParetoII(mean 10, shape 2.5) = 10.5139 (sum to 2e6 plus the tail integral);
    // with ~70 000 objects of variance ~500 the standard error is ~0.085.
    let expected_units: f64 = (0..1_000_000)
        .map(|k| (1.0 + k as f64 / 15.0).powf(-2.5))
        .sum::<f64>()
        + 15f64.powf(2.5) * 1e6f64.powf(-1.5) / 1.5;
    assert!(
        (expected_units - 10.513_87).abs() < 1e-3,
        "{expected_units}"
    );
    let units = log.iter().map(|(_, r)| r.bytes as f64 / 512.0).sum::<f64>() / log.len() as f64;
    assert!(
        (units - expected_units).abs() < 0.5,
        "mean object {units} segments"
    );
    assert!(log
        .iter()
        .all(|(_, r)| r.bytes % 512 == 0 && r.bytes >= 512));

    // Objects per page: E[max(1, ceil X)] for X exponential mean 3 = sum_{k>=0} e^{-k/3}
    // = 1 / (1 - e^{-1/3}) = 3.5277; 20 000 pages, standard error ~0.02.
    let pages = (s.sessions * s.pages_per_session) as f64;
    let per_page = log.len() as f64 / pages;
    assert!(
        (per_page - 3.527_7).abs() < 0.1,
        "objects per page {per_page}"
    );

    // Inter-page time: from the page's last completion to the next page's first request,
    // exponential mean 0.5 s; 19 800 gaps, standard error 0.0036.
    let mut first_request = std::collections::HashMap::new();
    for (_, r) in &log {
        if r.object == 0 {
            first_request.insert((r.session, r.page), r.at);
        }
    }
    let gaps: Vec<f64> = ends
        .iter()
        .filter_map(|&(s, p, t)| {
            first_request
                .get(&(s, p + 1))
                .map(|&n| (n - t).as_secs_f64())
        })
        .collect();
    assert_eq!(gaps.len(), 200 * 99);
    let g = gaps.iter().sum::<f64>() / gaps.len() as f64;
    assert!((g - 0.5).abs() < 0.02, "inter-page {g}");

    // Inter-object time: between consecutive requests of one page, exponential mean 10 ms.
    let mut prev: std::collections::HashMap<(u32, u32), Time> = Default::default();
    let mut sum = 0.0;
    let mut cnt = 0;
    for (_, r) in &log {
        if let Some(p) = prev.insert((r.session, r.page), r.at) {
            sum += (r.at - p).as_secs_f64();
            cnt += 1;
        }
    }
    let io = sum / cnt as f64;
    assert!((io - 0.01).abs() < 0.000_5, "inter-object {io}");

    // Servers and clients are spread uniformly over their 10 nodes.
    let mut per_server = [0u32; 10];
    for (_, r) in &log {
        per_server[r.server as usize] += 1;
    }
    assert!(
        per_server.iter().all(|&c| c > log.len() as u32 / 20),
        "{per_server:?}"
    );
}

#[test]
fn same_seed_same_traffic_other_seed_other_traffic() {
    let s = WebTrafficSettings {
        sessions: 30,
        ..Default::default()
    };
    let delay = |r: &Request| Duration::from_micros(10 + r.bytes % 997);
    let run = |seed| drive(&mut web(s, seed), delay, Time::from_secs(300)).0;
    let a = run(5);
    assert!(a.len() > 100);
    assert_eq!(a, run(5));
    assert_ne!(a, run(6));
}

#[test]
fn what_a_session_asks_for_does_not_depend_on_the_network() {
    // Module doc, choice 4: with different transfer times (e.g. another queue discipline)
    // every session requests the same pages, objects, servers and sizes; only times differ.
    let s = WebTrafficSettings {
        sessions: 20,
        pages_per_session: 5,
        ..Default::default()
    };
    let content = |delay: fn(&Request) -> Duration| {
        let (log, _) = drive(&mut web(s, 9), delay, Time::NEVER);
        let mut v: Vec<_> = log
            .iter()
            .map(|(_, r)| (r.session, r.page, r.object, r.client, r.server, r.bytes))
            .collect();
        v.sort_unstable();
        (v, log.iter().map(|(_, r)| r.at).collect::<Vec<_>>())
    };
    let (fast, t_fast) = content(|_| Duration::from_millis(1));
    let (slow, t_slow) = content(|r| Duration::from_millis(50 + r.bytes / 100));
    assert_eq!(fast, slow);
    assert_ne!(t_fast, t_slow);
}

#[test]
fn every_session_makes_exactly_its_pages() {
    let s = WebTrafficSettings {
        sessions: 40,
        pages_per_session: 7,
        objects_per_page: Dist::Exponential { mean: 4.0 },
        ..Default::default()
    };
    let mut w = web(s, 21);
    let mut jitter = Rng::from_seed(99);
    let (log, ends) = drive(
        &mut w,
        |_| Duration::from_secs_f64(jitter.exponential(0.2)),
        Time::NEVER,
    );
    assert!(w.is_finished());
    assert_eq!(w.next_event_time(), None);
    for sess in 0..40 {
        let mut pages: Vec<u32> = log
            .iter()
            .filter(|(_, r)| r.session == sess)
            .map(|(_, r)| r.page)
            .collect();
        pages.dedup();
        assert_eq!(pages, (0..7).collect::<Vec<_>>(), "session {sess}");
        assert_eq!(ends.iter().filter(|e| e.0 == sess).count(), 7);
    }
    let st = w.stats();
    assert_eq!((st.sessions_started, st.sessions_finished), (40, 40));
    assert_eq!((st.pages_started, st.pages_finished), (280, 280));
    assert_eq!(st.requests, log.len() as u64);
    assert_eq!(st.transfers_completed, st.requests);
}

#[test]
fn poisson_session_starts() {
    // Session 0 at 2 s, then exponential gaps of mean 0.5 s: 2000 sessions span ~1000 s.
    let s = WebTrafficSettings {
        sessions: 2000,
        session_start: SessionStart::Poisson {
            first: Time::from_secs(2),
            mean_gap: Duration::from_millis(500),
        },
        ..Default::default()
    };
    let mut w = web(s, 4);
    assert_eq!(w.next_event_time(), Some(Time::from_secs(2)));
    let mut starts = Vec::new();
    while let Some(t) = w.next_event_time() {
        let r = w.poll(t).unwrap();
        if r.page == 0 && r.object == 0 {
            starts.push(t);
        }
        // Complete nothing: each session stops after requesting page 0.
    }
    assert_eq!(starts.len(), 2000);
    assert!(starts.windows(2).all(|w| w[0] <= w[1]));
    let mean_gap = (starts[1999] - starts[0]).as_secs_f64() / 1999.0;
    assert!((mean_gap - 0.5).abs() < 0.035, "{mean_gap}"); // standard error 0.011
}

#[test]
fn uniform_session_starts_stay_in_range() {
    let s = WebTrafficSettings {
        sessions: 5000,
        session_start: SessionStart::Uniform {
            from: Time::from_secs(10),
            to: Time::from_secs(20),
        },
        ..Default::default()
    };
    let mut w = web(s, 8);
    let mut sum = 0.0;
    while let Some(t) = w.next_event_time() {
        let r = w.poll(t).unwrap();
        if r.object == 0 {
            assert!(t >= Time::from_secs(10) && t < Time::from_secs(20), "{t}");
            sum += t.as_secs_f64();
        }
    }
    let mean = sum / 5000.0;
    assert!((mean - 15.0).abs() < 0.25, "{mean}"); // standard error 2.89/sqrt(5000) = 0.041
}

#[test]
fn defaults_are_floyds_web_tcl_with_512_byte_segments() {
    let d = WebTrafficSettings::default();
    assert_eq!(d.pages_per_session, 10);
    assert_eq!(d.objects_per_page, constant(10.0));
    assert_eq!(d.inter_page, Dist::Exponential { mean: 1.0 });
    assert_eq!(d.inter_object, Dist::Exponential { mean: 0.01 });
    assert_eq!(
        d.object_size,
        Dist::ParetoII {
            mean: 60.0,
            shape: 1.05
        }
    );
    assert_eq!(d.size_unit, SizeUnit::Segments { bytes: 512 });
    assert_eq!(
        d.session_start,
        SessionStart::Uniform {
            from: Time::ZERO,
            to: Time::from_secs(100)
        }
    );
    assert_eq!((d.clients, d.servers), (10, 10));
    assert!(WebTrafficParams::new(d).is_ok());
}

#[test]
fn invalid_settings_are_refused_with_the_rule() {
    let d = WebTrafficSettings::default();
    let out_of_range = |s: WebTrafficSettings| match WebTrafficParams::new(s) {
        Err(ConfigError::OutOfRange { param, .. }) => param,
        other => panic!("expected OutOfRange, got {other:?}"),
    };
    let relation = |s: WebTrafficSettings| match WebTrafficParams::new(s) {
        Err(ConfigError::Relation { rule, .. }) => rule,
        other => panic!("expected Relation, got {other:?}"),
    };
    assert_eq!(
        out_of_range(WebTrafficSettings { sessions: 0, ..d }),
        "sessions"
    );
    assert_eq!(
        out_of_range(WebTrafficSettings {
            pages_per_session: 0,
            ..d
        }),
        "pages_per_session"
    );
    assert_eq!(
        out_of_range(WebTrafficSettings { clients: 0, ..d }),
        "clients"
    );
    assert_eq!(
        out_of_range(WebTrafficSettings { servers: 0, ..d }),
        "servers"
    );
    let exp0 = Dist::Exponential { mean: 0.0 };
    assert_eq!(
        out_of_range(WebTrafficSettings {
            inter_page: exp0,
            ..d
        }),
        "inter_page"
    );
    let nan = Dist::Exponential { mean: f64::NAN };
    assert_eq!(
        out_of_range(WebTrafficSettings {
            inter_object: nan,
            ..d
        }),
        "inter_object"
    );
    let neg = constant(-1.0);
    assert_eq!(
        out_of_range(WebTrafficSettings {
            objects_per_page: neg,
            ..d
        }),
        "objects_per_page"
    );
    let shape1 = Dist::ParetoII {
        mean: 60.0,
        shape: 1.0,
    };
    assert_eq!(
        out_of_range(WebTrafficSettings {
            object_size: shape1,
            ..d
        }),
        "object_size"
    );
    let mean0 = Dist::Pareto {
        mean: 0.0,
        shape: 1.5,
    };
    assert_eq!(
        out_of_range(WebTrafficSettings {
            object_size: mean0,
            ..d
        }),
        "object_size"
    );
    let inf = Dist::Uniform {
        lo: 0.0,
        hi: f64::INFINITY,
    };
    assert_eq!(
        out_of_range(WebTrafficSettings {
            inter_page: inf,
            ..d
        }),
        "inter_page"
    );
    let seg0 = SizeUnit::Segments { bytes: 0 };
    assert_eq!(
        out_of_range(WebTrafficSettings {
            size_unit: seg0,
            ..d
        }),
        "size_unit.bytes"
    );
    let swapped = Dist::Uniform { lo: 2.0, hi: 1.0 };
    assert_eq!(
        relation(WebTrafficSettings {
            inter_page: swapped,
            ..d
        }),
        "uniform lo <= hi"
    );
    let back = SessionStart::Uniform {
        from: Time::from_secs(2),
        to: Time::from_secs(1),
    };
    assert_eq!(
        relation(WebTrafficSettings {
            session_start: back,
            ..d
        }),
        "session_start from <= to"
    );
}

#[test]
fn zero_draws_still_make_one_object_of_one_unit() {
    // Module doc, choice 1: ceil(0) = 0 objects / 0 units would stall an ns-2 session.
    let s = WebTrafficSettings {
        objects_per_page: constant(0.0),
        object_size: constant(0.0),
        size_unit: SizeUnit::Bytes,
        ..deterministic_settings()
    };
    let mut w = web(s, 1);
    let r = w.poll(Time::from_secs(5)).unwrap();
    assert_eq!(r.bytes, 1);
    assert_eq!(w.next_event_time(), None); // the page has its one object
}

/// A source that always returns U just below 1: the largest draw a law can produce.
struct AlmostOne;
impl RandomSource for AlmostOne {
    fn next_u64(&mut self) -> u64 {
        u64::MAX
    }
}

#[test]
fn extreme_draws_saturate() {
    // ParetoII shape 1.05 at U = 1 - 2^-53: 3 x ((2^-53)^(-1/1.05) - 1) = 3 x 2^50.48 ~ 4e15.
    let x = Dist::ParetoII {
        mean: 60.0,
        shape: 1.05,
    }
    .sample(&mut AlmostOne);
    assert!(x.is_finite() && x > 1e15, "{x}");
    // In bytes at 512 B per segment: ~2e18 < u64::MAX; with huge segments it saturates.
    let s = WebTrafficSettings {
        object_size: constant(1e30),
        size_unit: SizeUnit::Segments { bytes: u32::MAX },
        ..deterministic_settings()
    };
    let mut w = web(s, 1);
    assert_eq!(w.poll(Time::from_secs(5)).unwrap().bytes, u64::MAX);
}

fn arb_dist_time() -> impl Strategy<Value = Dist> {
    prop_oneof![
        (0.0..0.2f64).prop_map(|value| Dist::Constant { value }),
        (0.001..0.5f64).prop_map(|mean| Dist::Exponential { mean }),
        (0.0..0.1f64, 0.0..0.3f64).prop_map(|(a, b)| Dist::Uniform {
            lo: a.min(b),
            hi: a.max(b)
        }),
    ]
}

fn arb_settings() -> impl Strategy<Value = WebTrafficSettings> {
    (
        1u32..12,
        1u32..5,
        arb_dist_time(),
        prop_oneof![
            (0.0..6.0f64).prop_map(|value| Dist::Constant { value }),
            (0.5..4.0f64).prop_map(|mean| Dist::Exponential { mean }),
        ],
        arb_dist_time(),
        (1.1..3.0f64, 1.0..50.0f64).prop_map(|(shape, mean)| Dist::ParetoII { mean, shape }),
        0u64..3_000,
        1u32..4,
        1u32..4,
    )
        .prop_map(
            |(sessions, pages, ip, opp, io, size, spread_ms, clients, servers)| {
                WebTrafficSettings {
                    sessions,
                    pages_per_session: pages,
                    inter_page: ip,
                    objects_per_page: opp,
                    inter_object: io,
                    object_size: size,
                    size_unit: SizeUnit::Segments { bytes: 512 },
                    session_start: SessionStart::Uniform {
                        from: Time::from_millis(100),
                        to: Time::from_millis(100 + spread_ms),
                    },
                    clients,
                    servers,
                    request: RequestLeg::Segment,
                }
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn times_never_go_back_and_sessions_complete(
        s in arb_settings(),
        seed in any::<u64>(),
        delay_ms in 0u64..400,
    ) {
        let mut w = web(s, seed);
        let mut jitter = Rng::from_seed(seed ^ 1);
        let (log, ends) = drive(
            &mut w,
            |_| Duration::from_micros(jitter.below(delay_ms * 1000 + 1)),
            Time::NEVER,
        );
        // Requests come out in non-decreasing due time, never after the poll instant.
        for pair in log.windows(2) {
            prop_assert!(pair[0].1.at <= pair[1].1.at);
        }
        for (polled, r) in &log {
            prop_assert!(r.at <= *polled);
            prop_assert!(r.client < s.clients && r.server < s.servers && r.bytes >= 512);
        }
        // Per session: pages in order, objects 0, 1, 2, ... within a page, one client.
        for sess in 0..s.sessions {
            let mine: Vec<&Request> =
                log.iter().map(|(_, r)| r).filter(|r| r.session == sess).collect();
            let mut expect = (0u32, 0u32);
            for r in &mine {
                if r.page != expect.0 {
                    prop_assert_eq!(r.page, expect.0 + 1);
                    prop_assert_eq!(r.object, 0);
                    expect = (r.page, 0);
                }
                prop_assert_eq!(r.object, expect.1);
                prop_assert_eq!(r.client, mine[0].client);
                expect.1 += 1;
            }
            prop_assert_eq!(expect.0 + 1, s.pages_per_session);
            prop_assert_eq!(ends.iter().filter(|e| e.0 == sess).count() as u32, s.pages_per_session);
        }
        prop_assert!(w.is_finished());
        prop_assert_eq!(w.next_event_time(), None);
        let st = *w.stats();
        prop_assert_eq!(st.transfers_completed, log.len() as u64);
        prop_assert_eq!(st.ignored, IgnoredCompletions::default());
    }
}
