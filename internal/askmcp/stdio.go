package askmcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxLine is the longest line the server reads: far above any call's arguments (a state of
// 8 KiB, a question of 16,000 characters), far below what would hurt.
const maxLine = 1 << 20

// Stdio is the server's transport over in and out, one JSON-RPC message a line, that answers
// a line which is no JSON-RPC message with a parse error (-32700) and goes on reading: the
// SDK's own stdio transport ends the session on such a line, and with it every call in
// flight.
//
// It also keeps the protocol's rule for cancellation, which the SDK does not: a request the
// client cancelled gets no response (the SDK still writes the one its handler returns).
func Stdio(in io.Reader, out io.Writer) mcp.Transport {
	w := &lockedWriter{w: out, inFlight: map[string]bool{}}
	pr, pw := io.Pipe()
	go filterLines(in, pw, w)
	return &mcp.IOTransport{Reader: pr, Writer: w}
}

// filterLines copies each line of in that is a JSON-RPC message to to, and answers the
// others on out (a line past maxLine too, unread).
func filterLines(in io.Reader, to *io.PipeWriter, out *lockedWriter) {
	r := bufio.NewReaderSize(in, 64<<10)
	for {
		line, err := readLine(r)
		if line = bytes.TrimSpace(line); len(line) > 0 {
			if _, bad := jsonrpc.DecodeMessage(line); bad != nil {
				_, _ = out.Write(parseError(bad))
				continue
			}
			out.note(line)
			if _, werr := to.Write(append(line, '\n')); werr != nil {
				return
			}
		}
		if err != nil {
			to.CloseWithError(nil) // the end of input: the session ends as usual
			return
		}
	}
}

// errTooLong stands for a line past maxLine, which is dropped unread.
var errTooLong = errors.New("the line is over 1 MiB")

// readLine reads one line; past maxLine it drops the rest of the line and returns a line
// that reads as no message.
func readLine(r *bufio.Reader) ([]byte, error) {
	var line []byte
	tooLong := false
	for {
		part, err := r.ReadSlice('\n')
		tooLong = tooLong || len(line)+len(part) > maxLine
		if !tooLong {
			line = append(line, part...)
		}
		if err != bufio.ErrBufferFull {
			if tooLong {
				return []byte(errTooLong.Error()), err
			}
			return line, err
		}
	}
}

// parseError is JSON-RPC's answer to a line that could not be read as a message: its id
// is unknown, so null.
func parseError(err error) []byte {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": nil,
		"error": map[string]any{"code": -32700, "message": "parse error: " + err.Error()}})
	return append(b, '\n')
}

// lockedWriter writes one message at a time: the SDK writes each message in one Write, and
// a parse error must not land in the middle of one. It drops the response to a request the
// client cancelled while it ran.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
	// inFlight holds the ids of the client's requests not answered yet, true once cancelled.
	inFlight map[string]bool
}

// envelope is what the writer reads of a message: enough to tell a request, a
// cancellation and a response apart.
type envelope struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		RequestID json.RawMessage `json:"requestId"`
	} `json:"params"`
}

// note records a request the client sent, or its cancellation of one still in flight.
func (l *lockedWriter) note(line []byte) {
	var e envelope
	if json.Unmarshal(line, &e) != nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case e.Method == "notifications/cancelled":
		id := idKey(e.Params.RequestID)
		if _, running := l.inFlight[id]; running {
			l.inFlight[id] = true
		}
	case e.Method != "" && idKey(e.ID) != "":
		l.inFlight[idKey(e.ID)] = false
	}
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	var e envelope
	if json.Unmarshal(p, &e) == nil && e.Method == "" {
		id := idKey(e.ID)
		cancelled := l.inFlight[id]
		delete(l.inFlight, id)
		if cancelled {
			return len(p), nil
		}
	}
	return l.w.Write(p)
}

// Close closes nothing: the writer is the process's standard output.
func (l *lockedWriter) Close() error { return nil }

// idKey is a JSON-RPC id as a map key ("" for none or null).
func idKey(raw json.RawMessage) string {
	var buf bytes.Buffer
	if len(raw) == 0 || json.Compact(&buf, raw) != nil || buf.String() == "null" {
		return ""
	}
	return buf.String()
}
