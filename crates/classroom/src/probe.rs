//! A minimal HTTP/1.1 client over loopback for the tests and the load tool: one
//! request per connection, and an event-stream reader. Not for the open internet
//! (no TLS, no redirects).

use std::io;
use std::net::SocketAddr;

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

/// A response.
#[derive(Debug)]
pub struct Reply {
    /// The status code.
    pub status: u16,
    /// Headers, names lowercased.
    pub headers: Vec<(String, String)>,
    /// The body, de-chunked.
    pub body: Vec<u8>,
}

impl Reply {
    /// A header's value.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The body as text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// Sends `raw_path` (as is: the tests send hostile paths) with `headers` and `body`.
pub async fn request(
    addr: SocketAddr,
    method: &str,
    raw_path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> io::Result<Reply> {
    let mut s = TcpStream::connect(addr).await?;
    let mut head = format!("{method} {raw_path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (n, v) in headers {
        head.push_str(&format!("{n}: {v}\r\n"));
    }
    if !body.is_empty() || method == "POST" {
        head.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    head.push_str("\r\n");
    s.write_all(head.as_bytes()).await?;
    s.write_all(body).await?;
    let mut r = BufReader::new(s);
    let (status, headers) = read_head(&mut r).await?;
    let chunked = headers
        .iter()
        .any(|(n, v)| n == "transfer-encoding" && v.contains("chunked"));
    let body = if method == "HEAD" {
        Vec::new()
    } else if chunked {
        let mut body = Vec::new();
        while let Some(chunk) = read_chunk(&mut r).await? {
            body.extend(chunk);
        }
        body
    } else {
        let mut body = Vec::new();
        r.read_to_end(&mut body).await?;
        body
    };
    Ok(Reply {
        status,
        headers,
        body,
    })
}

async fn read_head(r: &mut BufReader<TcpStream>) -> io::Result<(u16, Vec<(String, String)>)> {
    let mut line = String::new();
    r.read_line(&mut line).await?;
    let status = line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| {
            io::Error::new(io::ErrorKind::InvalidData, format!("status line: {line:?}"))
        })?;
    let mut headers = Vec::new();
    loop {
        line.clear();
        if r.read_line(&mut line).await? == 0 {
            break;
        }
        let l = line.trim_end();
        if l.is_empty() {
            break;
        }
        if let Some((n, v)) = l.split_once(':') {
            headers.push((n.trim().to_ascii_lowercase(), v.trim().to_string()));
        }
    }
    Ok((status, headers))
}

async fn read_chunk(r: &mut BufReader<TcpStream>) -> io::Result<Option<Vec<u8>>> {
    let mut line = String::new();
    if r.read_line(&mut line).await? == 0 {
        return Ok(None);
    }
    let size = usize::from_str_radix(line.trim(), 16)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, format!("chunk size: {line:?}")))?;
    if size == 0 {
        return Ok(None);
    }
    let mut chunk = vec![0; size + 2];
    r.read_exact(&mut chunk).await?;
    chunk.truncate(size);
    Ok(Some(chunk))
}

/// One server-sent event.
#[derive(Debug, Default, Clone)]
pub struct SseEvent {
    /// `event:`.
    pub event: String,
    /// `id:`.
    pub id: String,
    /// `data:` lines joined.
    pub data: String,
    /// `retry:`, if sent.
    pub retry: Option<u64>,
}

/// An open `GET /api/events` stream.
pub struct EventStream {
    reader: BufReader<TcpStream>,
    pending: String,
    /// The response's status (200 when the stream is open).
    pub status: u16,
    /// Its headers.
    pub headers: Vec<(String, String)>,
}

impl EventStream {
    /// Opens the stream.
    pub async fn open(addr: SocketAddr) -> io::Result<EventStream> {
        let mut s = TcpStream::connect(addr).await?;
        let head = format!(
            "GET /api/events HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n"
        );
        s.write_all(head.as_bytes()).await?;
        let mut reader = BufReader::new(s);
        let (status, headers) = read_head(&mut reader).await?;
        Ok(EventStream {
            reader,
            pending: String::new(),
            status,
            headers,
        })
    }

    /// The next event (comments and keep-alives skipped); `None` when the server closed it.
    pub async fn next(&mut self) -> io::Result<Option<SseEvent>> {
        loop {
            if let Some(end) = self.pending.find("\n\n") {
                let block: String = self.pending.drain(..end + 2).collect();
                let mut ev = SseEvent::default();
                let mut any = false;
                for line in block.lines() {
                    let (field, value) = line.split_once(':').unwrap_or((line, ""));
                    let value = value.strip_prefix(' ').unwrap_or(value);
                    match field {
                        "event" => ev.event = value.into(),
                        "id" => ev.id = value.into(),
                        "retry" => ev.retry = value.parse().ok(),
                        "data" => {
                            if !ev.data.is_empty() {
                                ev.data.push('\n');
                            }
                            ev.data.push_str(value);
                        }
                        _ => continue,
                    }
                    any = true;
                }
                if any {
                    return Ok(Some(ev));
                }
                continue;
            }
            match read_chunk(&mut self.reader).await? {
                Some(chunk) => self.pending.push_str(&String::from_utf8_lossy(&chunk)),
                None => return Ok(None),
            }
        }
    }
}
