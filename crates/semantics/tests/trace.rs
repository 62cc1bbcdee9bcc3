//! Traces record the run the interpreter makes, in the program's terms:
//! assignments with their values, reads, stores, branches with their
//! side, calls and returns, and the error at the end; temporaries are left
//! out and long runs keep only their first and last steps.

use std::sync::atomic::AtomicBool;
use wiser_ir::Span;
use wiser_semantics::concrete::{self, Outcome, Watch};
use wiser_semantics::{ErrorKind, Input, Options, Trace, TraceOptions, TraceStep};

fn traced(src: &str, input: Input, options: TraceOptions) -> (concrete::Run, Trace) {
    let ir = wiser_imp::compile(src).unwrap();
    let watch = Watch {
        trace: Some(options),
        ..Watch::default()
    };
    let mut run = concrete::run_watched(&ir, &input, 100_000, Options::default(), watch);
    let trace = run.trace.take().expect("a trace was asked for");
    (run, trace)
}

fn text(src: &str, span: Span) -> &str {
    &src[span.lo as usize..span.hi as usize]
}

/// A step as a short string, with the source text of its span.
fn show(src: &str, s: &TraceStep) -> String {
    match s {
        TraceStep::Assign { name, value, .. } => format!("{name} = {value}"),
        TraceStep::Store {
            array,
            index,
            value,
            ..
        } => format!("{array}[{index}] = {value}"),
        TraceStep::Read {
            index,
            target,
            value,
            ..
        } => format!("read {index} -> {value} into {target:?}"),
        TraceStep::Branch { span, taken } => {
            let first = text(src, *span).split_whitespace().next().unwrap_or("");
            format!("{first}: {taken}")
        }
        TraceStep::Assert { span } => format!("holds: {}", text(src, *span)),
        TraceStep::Thread { thread, .. } => format!("thread {thread}"),
        TraceStep::Load { what, value, .. } => format!("{what} -> {value}"),
        TraceStep::Assume { span, holds } => format!("{}: {holds}", text(src, *span)),
        TraceStep::Call { routine, args, .. } => {
            let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
            format!("call {routine}({})", args.join(", "))
        }
        TraceStep::Return { routine, value, .. } => {
            format!("return {routine} {:?}", value.as_ref().map(|(v, _)| v))
        }
        TraceStep::Error { kind, span } => format!("error {kind} at {}", text(src, *span)),
    }
}

#[test]
fn a_trace_lists_what_the_program_did_up_to_the_error() {
    let src = "proc twice(k) begin return k + k end\n\
               a[0] = 1;\n\
               x = *;\n\
               y = twice(x);\n\
               if y > 10 then a[3] = 7 else skip fi;\n\
               assert y >= 0;\n\
               assert y < 12";
    let input = Input {
        reads: vec![6.into()],
        ..Input::default()
    };
    let (run, trace) = traced(src, input, TraceOptions::default());
    assert!(matches!(
        run.outcome,
        Outcome::Error {
            kind: ErrorKind::Assertion,
            ..
        }
    ));
    let steps: Vec<String> = trace.steps().map(|s| show(src, s)).collect();
    assert_eq!(
        steps,
        [
            "a[0] = 1",
            "read 0 -> 6 into Some(\"x\")",
            "call twice(6)",
            "return twice Some(12)",
            "y = 12",
            "if: true",
            "a[3] = 7",
            "holds: assert y >= 0",
            "error assertion at assert y < 12",
        ]
        .map(String::from)
    );
    assert_eq!(trace.elided, 0);
}

#[test]
fn an_assume_that_fails_ends_the_trace() {
    let src = "proc f(k) begin return k * 2 end\ny = f(x);\nz = y + 1;\nassume z > 100";
    let input = Input {
        vars: vec![("x".into(), 4.into())],
        ..Input::default()
    };
    let (run, trace) = traced(src, input, TraceOptions::default());
    assert!(matches!(run.outcome, Outcome::AssumeFailed { .. }));
    let steps: Vec<String> = trace.steps().map(|s| show(src, s)).collect();
    assert_eq!(
        steps,
        [
            "call f(4)",
            "return f Some(8)",
            "y = 8",
            "z = 9",
            "assume z > 100: false"
        ]
        .map(String::from)
    );
}

#[test]
fn a_long_run_keeps_its_first_and_last_steps_and_counts_the_rest() {
    let src = "i = 0; while i < 1000 do i = i + 1 od; assert i < 1000";
    let options = TraceOptions {
        head: 5,
        tail: 3,
        ..TraceOptions::default()
    };
    let (_, trace) = traced(src, Input::default(), options);
    // i = 0, then 1000 times (branch, assignment), the exit branch, the error.
    assert_eq!(trace.len(), 1 + 2000 + 1 + 1);
    assert_eq!(trace.head.len(), 5);
    assert_eq!(trace.tail.len(), 3);
    assert_eq!(trace.elided, 2003 - 8);
    let last: Vec<String> = trace.tail.iter().map(|s| show(src, s)).collect();
    assert_eq!(
        last,
        [
            "i = 1000",
            "while: false",
            "error assertion at assert i < 1000"
        ]
        .map(String::from)
    );
}

#[test]
fn hiding_the_main_routine_keeps_its_error() {
    let src = "x = 1; y = x + 1; assert y == 3";
    let options = TraceOptions {
        hide_main: true,
        ..TraceOptions::default()
    };
    let (_, trace) = traced(src, Input::default(), options);
    let steps: Vec<String> = trace.steps().map(|s| show(src, s)).collect();
    assert_eq!(
        steps,
        ["error assertion at assert y == 3"].map(String::from)
    );
}

#[test]
fn a_trace_changes_nothing_of_the_run() {
    let src = "i = 0; s = 0; while i < n do s = s + i * i; i = i + 1 od; assert s != 285";
    let ir = wiser_imp::compile(src).unwrap();
    let input = Input {
        vars: vec![("n".into(), 10.into())],
        ..Input::default()
    };
    let plain = concrete::run(&ir, &input, 100_000);
    let watch = Watch {
        trace: Some(TraceOptions::default()),
        ..Watch::default()
    };
    let traced = concrete::run_watched(&ir, &input, 100_000, Options::default(), watch);
    assert_eq!(plain.outcome, traced.outcome);
    assert_eq!(plain.steps, traced.steps);
    assert_eq!(plain.final_store(&ir), traced.final_store(&ir));
}

#[test]
fn a_stop_switch_interrupts_a_run_with_its_state_so_far() {
    let ir = wiser_imp::compile("i = 0; while true do i = i + 1 od").unwrap();
    let stop = AtomicBool::new(true);
    let steps = std::sync::atomic::AtomicU64::new(0);
    let watch = Watch {
        stop: Some(&stop),
        steps: Some(&steps),
        ..Watch::default()
    };
    let run = concrete::run_watched(&ir, &Input::default(), u64::MAX, Options::default(), watch);
    assert_eq!(run.outcome, Outcome::Interrupted);
    // Looked at before the first step.
    assert_eq!(run.steps, 0);
    stop.store(false, std::sync::atomic::Ordering::Relaxed);
    let watch = Watch {
        stop: Some(&stop),
        steps: Some(&steps),
        ..Watch::default()
    };
    let run = concrete::run_watched(&ir, &Input::default(), 10_000, Options::default(), watch);
    assert_eq!(run.outcome, Outcome::OutOfSteps);
    assert_eq!(steps.load(std::sync::atomic::Ordering::Relaxed), 8192);
}
