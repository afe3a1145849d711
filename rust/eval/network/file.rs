//! Reading a weights file with bounds: a header line of bounded length, and
//! only a regular file of bounded size (never a FIFO or a device, which could
//! block or never end).

use std::io::{BufRead, Read};

/// The longest header line read, in bytes: a header with its training
/// record is about a kilobyte.
pub const MAX_HEADER_BYTES: usize = 1 << 16;

/// The next line of `input` without its newline, read `max` bytes at most;
/// `None` at the end of the input.
pub(super) fn line(input: &mut impl BufRead, max: usize) -> Result<Option<Vec<u8>>, String> {
    let mut out = Vec::new();
    input.take(max as u64 + 1).read_until(b'\n', &mut out).map_err(|e| format!("cannot read the weights file: {e}"))?;
    match out.pop() {
        None => Ok(None),
        Some(b'\n') => Ok(Some(out)),
        // No newline within the bound: longer than a header line may be (or
        // the file ends on it); either way not a line of a weights file.
        Some(_) if out.len() >= max => Err(format!("the weights file has a line longer than {max} bytes where its header should be")),
        Some(last) => {
            out.push(last);
            Ok(Some(out))
        }
    }
}

/// `path` opened for reading and its size, if it is a regular file of at
/// most `max` bytes. The check reads the metadata before opening, so a FIFO
/// is never opened by it (opening one for reading waits for a writer), and
/// again on the file opened, since the path may name something else by then.
pub(super) fn open_regular(path: &str, max: u64) -> Result<(std::fs::File, u64), String> {
    let cannot = |e: std::io::Error| format!("cannot read the model {path:?}: {e}");
    let regular = |m: std::fs::Metadata| {
        if !m.is_file() {
            return Err(format!("the model {path:?} is not a regular file (it is {})", file_kind(&m.file_type())));
        }
        if m.len() > max {
            return Err(format!("the model {path:?} has {} bytes; a weights file has at most {max}", m.len()));
        }
        Ok(m.len())
    };
    regular(std::fs::metadata(path).map_err(cannot)?)?;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    // A FIFO swapped in after the check above would make a plain open wait
    // for a writer; a non-blocking open returns at once (and changes nothing
    // for a regular file), and the check below then refuses it.
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
    let file = options.open(path).map_err(cannot)?;
    let len = regular(file.metadata().map_err(cannot)?)?;
    Ok((file, len))
}

/// What a file that is not a regular file is, for a message.
fn file_kind(t: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if t.is_dir() {
        "a directory"
    } else {
        "of another kind"
    }
}
