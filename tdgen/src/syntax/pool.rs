//! Parses the preprocessed files of a run on two threads while the evaluator consumes them.
//!
//! Preprocessing is one cheap sequential pass (macro state flows through
//! includes in text order), but parsing a file depends on nothing but its
//! preprocessed text, and parsing is about as costly as evaluating. So the
//! loader preprocesses everything first, then a worker thread parses the
//! files in the order the evaluator will reach them (preorder of includes,
//! which is file-id order), and the evaluator, whenever the file it needs is
//! not ready, parses the next unclaimed one itself instead of idling.
//!
//! Each file is parsed with its own interner; the evaluator renumbers a
//! file's symbols into the shared interner when it takes the file. That
//! happens in evaluation order, which does not depend on thread timing, so a
//! run's symbols, records and diagnostics are the same whatever the timing.

use super::ast::{File, Interner};
use super::parse::parse_file;
use super::remap::remap_file;
use crate::diag::{Diagnostic, FileId};
use rustc_hash::FxHashMap as HashMap;
use std::cell::OnceCell;
use std::sync::{Condvar, Mutex, MutexGuard};

/// One preprocessed file waiting to be parsed.
pub struct Job {
    /// The file.
    pub id: FileId,
    /// Its preprocessed text.
    pub text: String,
    /// The file each `include` (by byte offset) resolved to.
    pub includes: HashMap<u32, Option<FileId>>,
    /// How many diagnostics the loader held when the file finished
    /// preprocessing: a parse error is reported at that place, as if the
    /// file had been parsed right then.
    pub diag_pos: usize,
}

/// A parsed file whose symbols index `names` (its private interner's table).
struct Parsed {
    file: File,
    names: Vec<Box<str>>,
}

enum Slot {
    Queued,
    Parsing,
    Done(Result<Parsed, Diagnostic>),
    /// Handed to the evaluator.
    Taken,
}

struct State {
    slots: Vec<Slot>,
    /// No slot before this one is `Queued`.
    next: usize,
    /// The worker has stopped (finished, or panicked mid-parse).
    worker_gone: bool,
}

/// The jobs of a run (sorted by file id) and their progress, shared by the threads.
pub struct Pool {
    jobs: Vec<Job>,
    /// Each job's place in the order the loader handed them over.
    seq: Vec<usize>,
    state: Mutex<State>,
    changed: Condvar,
}

fn parse_job(job: &Job) -> Result<Parsed, Diagnostic> {
    let mut interner = Interner::default();
    let file = parse_file(job.id, &job.text, &job.includes, &mut interner)?;
    Ok(Parsed {
        file,
        names: interner.into_names(),
    })
}

/// Marks the worker gone when it returns or unwinds, so that nobody waits
/// for a file it will never finish.
struct WorkerGone<'a>(&'a Pool);

impl Drop for WorkerGone<'_> {
    fn drop(&mut self) {
        self.0.lock().worker_gone = true;
        self.0.changed.notify_all();
    }
}

impl Pool {
    /// A pool over `jobs`, in the order the files finished preprocessing.
    pub fn new(jobs: Vec<Job>) -> Pool {
        let mut numbered: Vec<(usize, Job)> = jobs.into_iter().enumerate().collect();
        numbered.sort_by_key(|(_, j)| j.id);
        let (seq, jobs): (Vec<usize>, Vec<Job>) = numbered.into_iter().unzip();
        let slots = jobs.iter().map(|_| Slot::Queued).collect();
        Pool {
            jobs,
            seq,
            state: Mutex::new(State {
                slots,
                next: 0,
                worker_gone: false,
            }),
            changed: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic elsewhere never leaves the state half-updated: every
        // update is a single assignment.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Claims the first queued job, in evaluation order.
    fn claim_next(st: &mut State) -> Option<usize> {
        while st.next < st.slots.len() && !matches!(st.slots[st.next], Slot::Queued) {
            st.next += 1;
        }
        let i = st.next;
        if i < st.slots.len() {
            st.slots[i] = Slot::Parsing;
            Some(i)
        } else {
            None
        }
    }

    /// Parses claimed job `i` with the lock released, and publishes it.
    fn run<'a>(&'a self, i: usize, st: MutexGuard<'a, State>) -> MutexGuard<'a, State> {
        drop(st);
        let r = parse_job(&self.jobs[i]);
        let mut st = self.lock();
        st.slots[i] = Slot::Done(r);
        self.changed.notify_all();
        st
    }

    /// The worker thread's loop: parse queued jobs until none is left.
    pub fn work(&self) {
        let _gone = WorkerGone(self);
        let mut st = self.lock();
        while let Some(i) = Self::claim_next(&mut st) {
            st = self.run(i, st);
        }
    }

    /// Says there is no worker thread (the calling thread parses everything).
    pub fn no_worker(&self) {
        self.lock().worker_gone = true;
    }

    /// Takes the parsed job `i` for the evaluator (None if it failed to
    /// parse), parsing other jobs while another thread is at it.
    fn take(&self, i: usize) -> Option<Parsed> {
        let mut st = self.lock();
        loop {
            match &st.slots[i] {
                Slot::Done(Ok(_)) => {
                    let Slot::Done(Ok(p)) = std::mem::replace(&mut st.slots[i], Slot::Taken) else {
                        unreachable!("matched just above")
                    };
                    return Some(p);
                }
                Slot::Done(Err(_)) | Slot::Taken => return None,
                Slot::Queued => {
                    st.slots[i] = Slot::Parsing;
                    st = self.run(i, st);
                }
                Slot::Parsing => {
                    if let Some(j) = Self::claim_next(&mut st) {
                        st = self.run(j, st);
                    } else if st.worker_gone {
                        panic!("the parsing thread stopped before finishing a file");
                    } else {
                        st = self.changed.wait(st).unwrap_or_else(|e| e.into_inner());
                    }
                }
            }
        }
    }

    /// Parses whatever is left and waits for the worker's last file; then
    /// returns the parse errors, each with its job's `diag_pos` and its
    /// place in the order the files finished preprocessing.
    pub fn finish(&self) -> Vec<(usize, usize, Diagnostic)> {
        let mut st = self.lock();
        while let Some(i) = Self::claim_next(&mut st) {
            st = self.run(i, st);
        }
        while st.slots.iter().any(|s| matches!(s, Slot::Parsing)) {
            if st.worker_gone {
                panic!("the parsing thread stopped before finishing a file");
            }
            st = self.changed.wait(st).unwrap_or_else(|e| e.into_inner());
        }
        let mut errors = Vec::new();
        for (i, slot) in st.slots.iter().enumerate() {
            if let Slot::Done(Err(d)) = slot {
                errors.push((self.jobs[i].diag_pos, self.seq[i], d.clone()));
            }
        }
        errors
    }

    /// Whether there is more than one job to share between threads.
    pub fn worth_a_worker(&self) -> bool {
        self.jobs.len() > 1
    }
}

/// The evaluator's view of the pool: files by id, renumbered into the shared
/// interner on first use and kept for later includes of the same file id.
pub struct Files<'p> {
    pool: &'p Pool,
    taken: Vec<OnceCell<File>>,
}

impl<'p> Files<'p> {
    /// The evaluator's view of `pool`.
    pub fn new(pool: &'p Pool) -> Files<'p> {
        Files {
            pool,
            taken: pool.jobs.iter().map(|_| OnceCell::new()).collect(),
        }
    }

    /// File `id`, parsed and renumbered into `interner`; None if it failed to parse.
    pub fn get(&self, id: FileId, interner: &mut Interner) -> Option<&File> {
        let i = self.pool.jobs.binary_search_by_key(&id, |j| j.id).ok()?;
        if let Some(f) = self.taken[i].get() {
            return Some(f);
        }
        let Parsed { mut file, names } = self.pool.take(i)?;
        let map: Vec<_> = names.iter().map(|n| interner.intern(n)).collect();
        remap_file(&mut file, &map);
        Some(self.taken[i].get_or_init(|| file))
    }
}
