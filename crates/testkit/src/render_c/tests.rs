//! Tests of the C rendering: every rendered program compiles with gcc,
//! and inputs map to reads and back.

use super::*;
use crate::{generate, GenConfig};

/// Every C-compatible program has a rendering, and gcc (when present)
/// accepts it without a warning about types.
#[test]
fn renders_c_compatible_programs() {
    let cfg = GenConfig::small().for_c();
    let dir = std::env::temp_dir().join(format!("wiser-render-c-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let gcc = std::process::Command::new("gcc")
        .arg("--version")
        .output()
        .is_ok();
    let mut unsupported = 0;
    for i in 0..60 {
        let p = generate(3, i, &cfg);
        let c = match render_c(&p) {
            Ok(c) => c,
            Err(e) => {
                unsupported += 1;
                eprintln!("program {i}: {e}");
                continue;
            }
        };
        assert_eq!(c.inputs.len(), p.spec.inputs.len() + p.spec.cells.len());
        if gcc {
            let path = dir.join(format!("p{i}.c"));
            std::fs::write(&path, &c.text).unwrap();
            let out = std::process::Command::new("gcc")
                .args([
                    "-std=gnu11",
                    "-fsyntax-only",
                    "-Werror=implicit-function-declaration",
                ])
                .arg(&path)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "program {i} does not compile with gcc:\n{}\n{}",
                String::from_utf8_lossy(&out.stderr),
                c.text
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        unsupported <= 3,
        "{unsupported} of 60 programs have no C rendering"
    );
}

#[test]
fn inputs_map_to_reads_and_back() {
    let c = CProgram {
        text: String::new(),
        inputs: vec![
            InputRead::Var("x".into()),
            InputRead::Cell("a".into(), -2),
            InputRead::Var("y".into()),
        ],
    };
    let reads: Vec<Int> = [5, -1, 7, 9, 10].iter().map(|v| Int::from(*v)).collect();
    let input = c.input_of(&reads);
    assert_eq!(input.vars.len(), 2);
    assert_eq!(input.reads, vec![Int::from(9), Int::from(10)]);
    assert_eq!(c.reads_of(&input), reads);
}
