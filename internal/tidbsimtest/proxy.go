package tidbsimtest

import (
	"encoding/binary"
	"io"
	"net"
	"sync"
	"time"
)

// LoggedStatement is one statement a client sent to a real server.
type LoggedStatement struct {
	Conn int    // the proxy's number of the client connection, from 1
	SQL  string // COM_QUERY and COM_STMT_PREPARE text; "EXECUTE" for COM_STMT_EXECUTE
	Time time.Time
}

// proxy forwards loopback connections to a server and logs the commands
// clients send: the MySQL client/server protocol's command phase
// (https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_command_phase.html):
// a packet with sequence id 0 after the handshake starts a command, its
// first byte names it. A connection that switches to TLS is forwarded
// without logging.
type proxy struct {
	ln     net.Listener
	target string

	mu      sync.Mutex
	entries []LoggedStatement
	conns   int
	open    map[net.Conn]bool
	wg      sync.WaitGroup
}

const (
	comQuery       = 0x03
	comStmtPrepare = 0x16
	comStmtExecute = 0x17
	clientSSL      = 0x0800 // capability flag of an SSLRequest
)

func startProxy(target string) (*proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &proxy{ln: ln, target: target, open: map[net.Conn]bool{}}
	p.wg.Add(1)
	go p.accept()
	return p, nil
}

func (p *proxy) addr() string { return p.ln.Addr().String() }

func (p *proxy) accept() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		s, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		p.conns++
		id := p.conns
		p.open[c], p.open[s] = true, true
		p.mu.Unlock()
		p.wg.Add(2)
		go func() { // server → client: copied as is
			defer p.wg.Done()
			_, _ = io.Copy(c, s)
			p.drop(c)
		}()
		go func() {
			defer p.wg.Done()
			p.forward(id, c, s)
			p.drop(s)
		}()
	}
}

// forward copies the client's packets to the server, logging commands.
func (p *proxy) forward(id int, c, s net.Conn) {
	handshake := true
	var hdr [4]byte
	for {
		if _, err := io.ReadFull(c, hdr[:]); err != nil {
			return
		}
		n := int(hdr[0]) | int(hdr[1])<<8 | int(hdr[2])<<16
		body := make([]byte, n)
		if _, err := io.ReadFull(c, body); err != nil {
			return
		}
		// A command is logged before it is forwarded: once the client has
		// its answer, the log holds the statement.
		seq, tls := hdr[3], false
		switch {
		case handshake && seq == 1 && len(body) >= 4:
			// the handshake response (or an SSLRequest: then TLS follows,
			// which is forwarded unread)
			handshake = false
			tls = binary.LittleEndian.Uint16(body[:2])&clientSSL != 0 && n == 32
		case !handshake && seq == 0 && n > 0:
			switch body[0] {
			case comQuery, comStmtPrepare:
				p.record(id, string(body[1:]))
			case comStmtExecute:
				p.record(id, "EXECUTE")
			}
		}
		if _, err := s.Write(append(hdr[:], body...)); err != nil {
			return
		}
		if tls {
			_, _ = io.Copy(s, c)
			return
		}
	}
}

// drop closes one side of a forwarded connection (the other copy then ends).
func (p *proxy) drop(c net.Conn) {
	c.Close()
	p.mu.Lock()
	delete(p.open, c)
	p.mu.Unlock()
}

func (p *proxy) record(id int, q string) {
	p.mu.Lock()
	p.entries = append(p.entries, LoggedStatement{Conn: id, SQL: q, Time: time.Now()})
	p.mu.Unlock()
}

func (p *proxy) log() []LoggedStatement {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]LoggedStatement(nil), p.entries...)
}

func (p *proxy) close() {
	p.ln.Close()
	p.mu.Lock()
	for c := range p.open {
		c.Close()
	}
	p.mu.Unlock()
	p.wg.Wait()
}
