//! Multi-process start-up the way `torchrun` does it: each process reads its rank, the world
//! size and a rendezvous address from the environment, and rank 0 hands the NCCL unique id to
//! the others over a small TCP rendezvous.
//!
//! Variables: `RANK` (0-based, global), `WORLD_SIZE`, `LOCAL_RANK` (the GPU index on this host;
//! defaults to `RANK`), `MASTER_ADDR` and `MASTER_PORT` (where rank 0 listens). Across hosts the
//! same variables apply, plus NCCL's own network settings (`NCCL_SOCKET_IFNAME`, `NCCL_IB_*`).
//!
//! The protocol: rank 0 listens; every other rank connects (retrying until the timeout) and
//! sends a magic word, its rank and the world size it was given; rank 0 checks them and replies
//! with the 128-byte id.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

use crate::error::{Error, Result};

/// Sent first by every connecting rank: "KRDV" and a protocol version.
const MAGIC: [u8; 8] = *b"KRDV\0\0\0\x01";
/// Bytes of the payload rank 0 hands out (an NCCL unique id).
pub const PAYLOAD: usize = 128;

/// One process's place in a multi-process run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DistEnv {
    pub rank: usize,
    pub world: usize,
    /// The GPU this process uses on its host.
    pub local_rank: usize,
    pub master_addr: String,
    pub master_port: u16,
}

impl DistEnv {
    /// Reads the variables from the process environment. `Ok(None)` when `WORLD_SIZE` is unset
    /// (not a multi-process run).
    pub fn from_env() -> Result<Option<DistEnv>> {
        DistEnv::from_lookup(|k| std::env::var(k).ok())
    }

    /// Reads the variables through `get` (the environment, or a map in tests).
    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> Result<Option<DistEnv>> {
        let Some(world) = get("WORLD_SIZE") else { return Ok(None) };
        let bad = |var: &str, value: &str, want: &str| Error::Distributed(format!("{var}={value:?}: expected {want}"));
        let num = |var: &str, v: &str| v.trim().parse::<usize>().map_err(|_| bad(var, v, "a non-negative integer"));
        let world = num("WORLD_SIZE", &world)?;
        if world == 0 {
            return Err(bad("WORLD_SIZE", "0", "at least 1"));
        }
        let need = |var: &str| get(var).ok_or_else(|| Error::Distributed(format!("WORLD_SIZE is set but {var} is not")));
        let rank_s = need("RANK")?;
        let rank = num("RANK", &rank_s)?;
        if rank >= world {
            return Err(bad("RANK", &rank_s, &format!("less than WORLD_SIZE ({world})")));
        }
        let local_rank = match get("LOCAL_RANK") {
            Some(v) => num("LOCAL_RANK", &v)?,
            None => rank,
        };
        let master_addr = get("MASTER_ADDR").unwrap_or_else(|| "127.0.0.1".into());
        let port_s = get("MASTER_PORT").unwrap_or_else(|| "29500".into());
        let master_port = port_s.trim().parse::<u16>().ok().filter(|&p| p > 0).ok_or_else(|| bad("MASTER_PORT", &port_s, "a port number 1..65535"))?;
        Ok(Some(DistEnv { rank, world, local_rank, master_addr, master_port }))
    }

    /// The rendezvous address.
    pub fn master(&self) -> Result<SocketAddr> {
        let addr = format!("{}:{}", self.master_addr, self.master_port);
        addr.to_socket_addrs()
            .map_err(|e| Error::Distributed(format!("MASTER_ADDR {addr}: {e}")))?
            .next()
            .ok_or_else(|| Error::Distributed(format!("MASTER_ADDR {addr} resolves to no address")))
    }

    /// Rank 0 listens and sends `payload` (made only there) to everyone; the others receive it.
    pub fn rendezvous(&self, timeout: Duration, payload: impl FnOnce() -> Result<[u8; PAYLOAD]>) -> Result<[u8; PAYLOAD]> {
        if self.world == 1 {
            return payload();
        }
        let addr = self.master()?;
        if self.rank == 0 {
            let listener = TcpListener::bind(addr).map_err(|e| Error::Distributed(format!("rank 0 cannot listen on {addr}: {e}")))?;
            let p = payload()?;
            serve(&listener, self.world, &p, timeout)?;
            Ok(p)
        } else {
            join(addr, self.rank, self.world, timeout)
        }
    }
}

fn io_err(what: &str, e: std::io::Error) -> Error {
    Error::Distributed(format!("rendezvous: {what}: {e}"))
}

/// Rank 0's side: accepts `world − 1` ranks on `listener` and sends each `payload`. Fails when
/// they have not all arrived within `timeout`, naming the missing ranks.
pub fn serve(listener: &TcpListener, world: usize, payload: &[u8; PAYLOAD], timeout: Duration) -> Result<()> {
    let deadline = Instant::now() + timeout;
    listener.set_nonblocking(true).map_err(|e| io_err("listener", e))?;
    let mut joined = vec![false; world];
    joined[0] = true;
    while joined.iter().any(|j| !j) {
        match listener.accept() {
            Ok((mut s, peer)) => {
                s.set_nonblocking(false).map_err(|e| io_err("socket", e))?;
                let left = deadline.saturating_duration_since(Instant::now()).max(Duration::from_millis(1));
                s.set_read_timeout(Some(left)).map_err(|e| io_err("socket", e))?;
                s.set_write_timeout(Some(left)).map_err(|e| io_err("socket", e))?;
                let mut hello = [0u8; 24];
                s.read_exact(&mut hello).map_err(|e| io_err(&format!("reading from {peer}"), e))?;
                let rank = u64::from_le_bytes(hello[8..16].try_into().expect("8 bytes")) as usize;
                let their_world = u64::from_le_bytes(hello[16..24].try_into().expect("8 bytes")) as usize;
                if hello[..8] != MAGIC {
                    return Err(Error::Distributed(format!("rendezvous: {peer} is not a rank of this program (bad greeting)")));
                }
                if their_world != world || rank == 0 || rank >= world || joined[rank] {
                    return Err(Error::Distributed(format!(
                        "rendezvous: {peer} says it is rank {rank} of {their_world}; expected a new rank in 1..{world} of {world}"
                    )));
                }
                s.write_all(payload).map_err(|e| io_err(&format!("sending to rank {rank}"), e))?;
                joined[rank] = true;
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                if Instant::now() > deadline {
                    let missing: Vec<usize> = (0..world).filter(|&r| !joined[r]).collect();
                    return Err(Error::Distributed(format!("rendezvous: ranks {missing:?} did not join within {:.1} s", timeout.as_secs_f64())));
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            Err(e) => return Err(io_err("accept", e)),
        }
    }
    Ok(())
}

/// A non-zero rank's side: connects to `addr` (retrying while rank 0 is not up yet), introduces
/// itself and reads the payload, all within `timeout`.
pub fn join(addr: SocketAddr, rank: usize, world: usize, timeout: Duration) -> Result<[u8; PAYLOAD]> {
    let deadline = Instant::now() + timeout;
    let mut s = loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(Error::Distributed(format!("rank {rank}: no rendezvous at {addr} within {:.1} s (is rank 0 running?)", timeout.as_secs_f64())));
        }
        match TcpStream::connect_timeout(&addr, left.min(Duration::from_secs(1))) {
            Ok(s) => break s,
            Err(_) => std::thread::sleep(Duration::from_millis(50).min(left)),
        }
    };
    let left = deadline.saturating_duration_since(Instant::now()).max(Duration::from_millis(1));
    s.set_read_timeout(Some(left)).map_err(|e| io_err("socket", e))?;
    s.set_write_timeout(Some(left)).map_err(|e| io_err("socket", e))?;
    let mut hello = [0u8; 24];
    hello[..8].copy_from_slice(&MAGIC);
    hello[8..16].copy_from_slice(&(rank as u64).to_le_bytes());
    hello[16..24].copy_from_slice(&(world as u64).to_le_bytes());
    s.write_all(&hello).map_err(|e| io_err(&format!("rank {rank} greeting {addr}"), e))?;
    let mut payload = [0u8; PAYLOAD];
    s.read_exact(&mut payload).map_err(|e| io_err(&format!("rank {rank} reading the id from {addr}"), e))?;
    Ok(payload)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let m: HashMap<String, String> = pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        move |k| m.get(k).cloned()
    }

    #[test]
    fn no_world_size_is_a_single_process_run() {
        assert_eq!(DistEnv::from_lookup(env(&[("RANK", "1")])).unwrap(), None);
    }

    #[test]
    fn reads_the_torchrun_variables() {
        let e = DistEnv::from_lookup(env(&[("WORLD_SIZE", "4"), ("RANK", "3"), ("LOCAL_RANK", "1"), ("MASTER_ADDR", "10.0.0.2"), ("MASTER_PORT", "1234")]));
        assert_eq!(e.unwrap(), Some(DistEnv { rank: 3, world: 4, local_rank: 1, master_addr: "10.0.0.2".into(), master_port: 1234 }));
        let d = DistEnv::from_lookup(env(&[("WORLD_SIZE", "2"), ("RANK", "1")])).unwrap().unwrap();
        assert_eq!((d.local_rank, d.master_addr.as_str(), d.master_port), (1, "127.0.0.1", 29500));
    }

    #[test]
    fn bad_values_are_errors_that_name_the_variable() {
        for (pairs, var) in [
            (&[("WORLD_SIZE", "two"), ("RANK", "0")][..], "WORLD_SIZE"),
            (&[("WORLD_SIZE", "0"), ("RANK", "0")][..], "WORLD_SIZE"),
            (&[("WORLD_SIZE", "2")][..], "RANK"),
            (&[("WORLD_SIZE", "2"), ("RANK", "2")][..], "RANK"),
            (&[("WORLD_SIZE", "2"), ("RANK", "0"), ("MASTER_PORT", "70000")][..], "MASTER_PORT"),
            (&[("WORLD_SIZE", "2"), ("RANK", "0"), ("LOCAL_RANK", "-1")][..], "LOCAL_RANK"),
        ] {
            match DistEnv::from_lookup(env(pairs)) {
                Err(Error::Distributed(m)) => assert!(m.contains(var), "{m}"),
                other => panic!("{pairs:?}: {other:?}"),
            }
        }
    }

    #[test]
    fn two_threads_exchange_an_id_over_localhost() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let id = [7u8; PAYLOAD];
        let joiner = std::thread::spawn(move || join(addr, 1, 2, Duration::from_secs(10)));
        serve(&listener, 2, &id, Duration::from_secs(10)).unwrap();
        assert_eq!(joiner.join().unwrap().unwrap(), id);
    }

    #[test]
    fn the_env_rendezvous_hands_rank_0s_payload_to_every_rank() {
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let at = move |rank| DistEnv { rank, world: 3, local_rank: rank, master_addr: "127.0.0.1".into(), master_port: port };
        let joiners: Vec<_> = (1..3)
            .map(|r| {
                let e = at(r);
                std::thread::spawn(move || e.rendezvous(Duration::from_secs(10), || panic!("only rank 0 makes the id")))
            })
            .collect();
        let got = at(0).rendezvous(Duration::from_secs(10), || Ok([42u8; PAYLOAD])).unwrap();
        assert_eq!(got, [42u8; PAYLOAD]);
        for j in joiners {
            assert_eq!(j.join().unwrap().unwrap(), [42u8; PAYLOAD]);
        }
    }

    #[test]
    fn a_missing_rank_times_out_naming_it() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let t0 = Instant::now();
        match serve(&listener, 2, &[0; PAYLOAD], Duration::from_millis(300)) {
            Err(Error::Distributed(m)) => assert!(m.contains("[1]"), "{m}"),
            other => panic!("{other:?}"),
        }
        assert!(t0.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn joining_without_rank_0_times_out() {
        // A port that was free a moment ago: nothing listens there.
        let addr = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
        let t0 = Instant::now();
        assert!(matches!(join(addr, 1, 2, Duration::from_millis(300)), Err(Error::Distributed(_))));
        assert!(t0.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn a_stranger_is_refused() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let stranger = std::thread::spawn(move || {
            let mut s = TcpStream::connect(addr).unwrap();
            let _ = s.write_all(&[0u8; 24]);
        });
        assert!(matches!(serve(&listener, 2, &[0; PAYLOAD], Duration::from_secs(5)), Err(Error::Distributed(m)) if m.contains("greeting")));
        stranger.join().unwrap();
    }
}
