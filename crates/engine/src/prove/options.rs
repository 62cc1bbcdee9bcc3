//! How `prove` goes about a proof: which methods, and k-induction's
//! bound (`wiser prove --method`, `--max-k`; a portfolio member's
//! settings).

/// The methods `prove` tries, after the cheap inductive facts (Houdini),
/// which every method starts with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Method {
    /// Spacer, then k-induction with the time left.
    #[default]
    Auto,
    /// Spacer only.
    Spacer,
    /// k-induction only.
    KInduction,
}

impl Method {
    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Method::Auto => "auto",
            Method::Spacer => "spacer",
            Method::KInduction => "k-induction",
        }
    }
}

/// The settings of a proof attempt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProveOptions {
    /// The methods.
    pub method: Method,
    /// k-induction deepens k from 1 to this.
    pub max_k: usize,
}

/// k-induction's default bound on k.
pub const DEFAULT_MAX_K: usize = 32;

impl Default for ProveOptions {
    /// Every method, k up to [`DEFAULT_MAX_K`].
    fn default() -> Self {
        ProveOptions {
            method: Method::Auto,
            max_k: DEFAULT_MAX_K,
        }
    }
}
