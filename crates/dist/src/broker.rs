//! The broker: every Redis command a distributed run sends, in one place.
//!
//! Keys of run `ID` (all under `wiser:run:ID:`):
//! * `spec`: what to check (the front end's description, opaque here);
//! * `work`: a stream of work items (field `prefix`: one or more path
//!   prefixes, separated by spaces), read through the
//!   consumer group `workers`: Redis hands each entry to one consumer and
//!   keeps it in that consumer's pending list until it is acknowledged, so
//!   an item a worker leased and never finished (the worker was killed) is
//!   still there; a worker renews its lease by claiming its own entry again
//!   (`XCLAIM` resets the entry's idle time) and an idle worker takes over
//!   entries idle longer than the lease (`XAUTOCLAIM`);
//! * `results`: a stream of item results (field `result`, JSON), read by
//!   the coordinator;
//! * `hungry`: a sorted set of workers that found nothing to do, scored by
//!   the broker's clock when they last looked: busy workers hand prefixes
//!   back while it is not empty;
//! * `stop`: set when the run is over.
//!
//! `wiser:runs` is the set of runs in progress, which idle workers watch.

use crate::DistError;
use redis::streams::{
    StreamAutoClaimOptions, StreamAutoClaimReply, StreamClaimOptions, StreamReadOptions,
    StreamReadReply,
};
use redis::{Commands, Connection};
use std::time::Duration;

/// The set of runs in progress.
const RUNS: &str = "wiser:runs";
/// The consumer group of the work stream.
const GROUP: &str = "workers";

/// A work item as a worker leased it.
#[derive(Clone, Debug)]
pub struct Item {
    /// Its entry id in the work stream.
    pub id: String,
    /// The path prefixes it names, in [`wiser_engine::Prefix::to_text`]'s
    /// form, separated by spaces.
    pub prefixes: String,
}

/// A result as the coordinator read it.
pub struct Posted {
    /// Its entry id in the results stream.
    pub id: String,
    /// The result (JSON).
    pub json: String,
}

/// One connection to the broker, for one run's keys.
pub struct Broker {
    conn: Connection,
    url: String,
}

fn key(run: &str, name: &str) -> String {
    format!("wiser:run:{run}:{name}")
}

impl Broker {
    /// Connects to the Redis server at `url` (`redis://HOST:PORT`).
    pub fn connect(url: &str) -> Result<Broker, DistError> {
        let client = redis::Client::open(url).map_err(|e| DistError::broker(url, e))?;
        let conn = client
            .get_connection_with_timeout(Duration::from_secs(5))
            .map_err(|e| DistError::broker(url, e))?;
        Ok(Broker {
            conn,
            url: url.to_string(),
        })
    }

    /// Another connection to the same server (one per thread).
    pub fn again(&self) -> Result<Broker, DistError> {
        Broker::connect(&self.url)
    }

    fn fail(&self, e: redis::RedisError) -> DistError {
        DistError::broker(&self.url, e)
    }

    /// The broker's clock, in milliseconds (one clock for every machine).
    pub fn now_ms(&mut self) -> Result<u64, DistError> {
        let (secs, micros): (u64, u64) = redis::cmd("TIME")
            .query(&mut self.conn)
            .map_err(|e| DistError::broker(&self.url, e))?;
        Ok(secs * 1000 + micros / 1000)
    }

    /// Opens run `run`: its spec, its work stream with the group and the
    /// root item; then announces it. Returns the root item's id.
    pub fn open_run(&mut self, run: &str, spec: &str, root: &str) -> Result<String, DistError> {
        let r: Result<String, _> = (|| {
            self.conn.set::<_, _, ()>(key(run, "spec"), spec)?;
            self.conn
                .xgroup_create_mkstream::<_, _, _, ()>(key(run, "work"), GROUP, "0")?;
            let id: String = self.conn.xadd(key(run, "work"), "*", &[("prefix", root)])?;
            self.conn.sadd::<_, _, ()>(RUNS, run)?;
            Ok(id)
        })();
        r.map_err(|e| self.fail(e))
    }

    /// Ends run `run`: workers see `stop`, the run leaves `wiser:runs`, and
    /// its keys expire after `linger` (workers still finishing an item
    /// find them until then).
    pub fn close_run(&mut self, run: &str, linger: Duration) -> Result<(), DistError> {
        let secs = linger.as_secs().max(1) as i64;
        let r: Result<(), redis::RedisError> = (|| {
            self.conn.set::<_, _, ()>(key(run, "stop"), 1)?;
            self.conn.srem::<_, _, ()>(RUNS, run)?;
            for name in ["spec", "work", "results", "hungry", "stop"] {
                self.conn.expire::<_, ()>(key(run, name), secs)?;
            }
            Ok(())
        })();
        r.map_err(|e| self.fail(e))
    }

    /// The runs in progress.
    pub fn runs(&mut self) -> Result<Vec<String>, DistError> {
        let r: Result<Vec<String>, _> = self.conn.smembers(RUNS);
        r.map_err(|e| self.fail(e))
    }

    /// Run `run`'s spec, if it still exists.
    pub fn spec(&mut self, run: &str) -> Result<Option<String>, DistError> {
        let r: Result<Option<String>, _> = self.conn.get(key(run, "spec"));
        r.map_err(|e| self.fail(e))
    }

    /// Is run `run` over?
    pub fn stopped(&mut self, run: &str) -> Result<bool, DistError> {
        let r: Result<bool, _> = self.conn.exists(key(run, "stop"));
        r.map_err(|e| self.fail(e))
    }

    /// Leases the next item of run `run` for consumer `me`: a new one, else
    /// one whose lease ran out (its worker is gone), waiting up to `block`.
    pub fn lease(
        &mut self,
        run: &str,
        me: &str,
        lease: Duration,
        block: Duration,
    ) -> Result<Option<Item>, DistError> {
        let work = key(run, "work");
        let options = StreamReadOptions::default()
            .group(GROUP, me)
            .count(1)
            .block(block.as_millis().max(1) as usize);
        let read: Result<Option<StreamReadReply>, _> =
            self.conn.xread_options(&[&work], &[">"], &options);
        let read = read.map_err(|e| self.fail(e))?;
        if let Some(entry) = read
            .and_then(|r| r.keys.into_iter().next())
            .and_then(|k| k.ids.into_iter().next())
        {
            return Ok(item(entry));
        }
        let claimed: Result<StreamAutoClaimReply, _> = self.conn.xautoclaim_options(
            &work,
            GROUP,
            me,
            lease.as_millis() as u64,
            "0-0",
            StreamAutoClaimOptions::default().count(1),
        );
        match claimed {
            Ok(reply) => Ok(reply.claimed.into_iter().next().and_then(item)),
            // The stream expired under us: the run is over.
            Err(e) if e.kind() == redis::ErrorKind::ResponseError => Ok(None),
            Err(e) => Err(self.fail(e)),
        }
    }

    /// Renews consumer `me`'s lease on item `id`.
    pub fn renew(&mut self, run: &str, me: &str, id: &str) -> Result<(), DistError> {
        let r: Result<redis::Value, _> = self.conn.xclaim_options(
            key(run, "work"),
            GROUP,
            me,
            0,
            &[id],
            StreamClaimOptions::default().with_justid(),
        );
        r.map(|_| ()).map_err(|e| self.fail(e))
    }

    /// Adds an item naming `prefix` (prefixes, separated by spaces), handed
    /// back by the worker of `parent`.
    pub fn add_item(&mut self, run: &str, prefix: &str, parent: &str) -> Result<String, DistError> {
        let r: Result<String, _> = self.conn.xadd(
            key(run, "work"),
            "*",
            &[("prefix", prefix), ("parent", parent)],
        );
        r.map_err(|e| self.fail(e))
    }

    /// Posts an item's result, then acknowledges and removes the item: a
    /// worker killed between the two leaves the item leased, and whoever
    /// takes it over posts a second result, which the coordinator ignores.
    pub fn finish(&mut self, run: &str, id: &str, result: &str) -> Result<(), DistError> {
        let r: Result<(), redis::RedisError> = (|| {
            self.conn
                .xadd::<_, _, _, _, ()>(key(run, "results"), "*", &[("result", result)])?;
            self.conn
                .xack::<_, _, _, ()>(key(run, "work"), GROUP, &[id])?;
            self.conn.xdel::<_, _, ()>(key(run, "work"), &[id])?;
            Ok(())
        })();
        r.map_err(|e| self.fail(e))
    }

    /// Results of run `run` after entry `after` (`0` for all), waiting up
    /// to `block` (at least a millisecond) for one.
    pub fn results(
        &mut self,
        run: &str,
        after: &str,
        block: Duration,
    ) -> Result<Vec<Posted>, DistError> {
        let options = StreamReadOptions::default()
            .count(256)
            .block(block.as_millis().max(1) as usize);
        let read: Result<Option<StreamReadReply>, _> =
            self.conn
                .xread_options(&[key(run, "results")], &[after], &options);
        let read = read.map_err(|e| self.fail(e))?;
        Ok(read
            .into_iter()
            .flat_map(|r| r.keys)
            .flat_map(|k| k.ids)
            .filter_map(|e| {
                Some(Posted {
                    json: e.get("result")?,
                    id: e.id,
                })
            })
            .collect())
    }

    /// Says that consumer `me` of run `run` has nothing to do.
    pub fn hungry(&mut self, run: &str, me: &str) -> Result<(), DistError> {
        let now = self.now_ms()?;
        let r: Result<(), _> = self.conn.zadd(key(run, "hungry"), me, now);
        r.map_err(|e| self.fail(e))
    }

    /// Says that consumer `me` has work again.
    pub fn fed(&mut self, run: &str, me: &str) -> Result<(), DistError> {
        let r: Result<(), _> = self.conn.zrem(key(run, "hungry"), me);
        r.map_err(|e| self.fail(e))
    }

    /// How many workers of run `run` said within `recent` that they have
    /// nothing to do.
    pub fn hungry_count(&mut self, run: &str, recent: Duration) -> Result<usize, DistError> {
        let since = self.now_ms()?.saturating_sub(recent.as_millis() as u64);
        let r: Result<usize, _> = self.conn.zcount(key(run, "hungry"), since, "+inf");
        r.map_err(|e| self.fail(e))
    }

    /// How many items of run `run` are leased and not yet finished.
    pub fn leased(&mut self, run: &str) -> Result<usize, DistError> {
        let r: Result<redis::streams::StreamPendingReply, _> =
            self.conn.xpending(key(run, "work"), GROUP);
        match r {
            Ok(p) => Ok(p.count()),
            Err(e) => Err(self.fail(e)),
        }
    }
}

fn item(entry: redis::streams::StreamId) -> Option<Item> {
    Some(Item {
        prefixes: entry.get("prefix")?,
        id: entry.id,
    })
}
