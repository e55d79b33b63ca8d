package tidbsim

import (
	"net"
	"sync/atomic"
)

// The network between a client and a TiDB instance. Over a real network
// every exchange of the MySQL protocol costs one round trip: the TCP
// handshake before the server's greeting, then each request (the
// authentication response, a statement, a ping) and its answer
// (https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_command_phase.html:
// the client sends a command and reads the server's response before the
// next). Faults.RoundTrip reproduces that wait on loopback, where it is
// otherwise absent: a connection waits it once before the greeting and once
// when a request arrives after an answer was sent. It is the network, not
// the server: Faults.Latency is the server's own round trips to the
// instances a statement contacts, and comes on top.

// roundTripListener delays the connections it accepts by the cluster's
// Faults.RoundTrip.
type roundTripListener struct {
	net.Listener
	c *Cluster
}

func (l roundTripListener) Accept() (net.Conn, error) {
	conn, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &roundTripConn{Conn: conn, c: l.c}, nil
}

// roundTripConn waits the round trip before its first write (the TCP
// handshake precedes the greeting) and on the first read that returns data
// after a write (a request's way there and its answer's way back). Reads and
// writes of one connection may come from different goroutines: the turn is
// atomic.
type roundTripConn struct {
	net.Conn
	c       *Cluster
	greeted atomic.Bool
	wrote   atomic.Bool
}

func (rc *roundTripConn) Write(p []byte) (int, error) {
	if !rc.greeted.Swap(true) {
		rc.wait()
	}
	rc.wrote.Store(true)
	return rc.Conn.Write(p)
}

func (rc *roundTripConn) Read(p []byte) (int, error) {
	n, err := rc.Conn.Read(p)
	if n > 0 && rc.wrote.Swap(false) {
		rc.wait()
	}
	return n, err
}

// wait sleeps the cluster's current round trip, if any.
func (rc *roundTripConn) wait() {
	rc.c.Mu.Lock()
	d, sleep := rc.c.fault.RoundTrip, rc.c.sleep
	rc.c.Mu.Unlock()
	if d > 0 {
		sleep(d)
	}
}
