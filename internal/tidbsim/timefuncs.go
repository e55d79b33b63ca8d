package tidbsim

import (
	"time"
)

// Date and time functions, on the cluster's clock (Cluster.Now) and the
// emulator's SYSTEM time zone, UTC. MySQL semantics, which TiDB follows
// (https://docs.pingcap.com/tidb/stable/date-and-time-functions):
//
//	NOW()              'YYYY-MM-DD HH:MM:SS' (DATETIME)
//	UNIX_TIMESTAMP()   seconds since the epoch (BIGINT); UNIX_TIMESTAMP(d) those
//	                   of the DATETIME/TIMESTAMP d (0 when d is not a date)
//	FROM_UNIXTIME(n)   the DATETIME of n seconds since the epoch; NULL for a
//	                   negative n
//
// The string form compares correctly with TIMESTAMP columns, which the
// emulator sends in the same form (timestampText).

func init() {
	RegisterFunction("NOW", func(s *Session, args []Value) (Value, error) {
		if len(args) != 0 {
			return Null, ErrWrongArgCount("now")
		}
		return Str(timestampText(s.Cluster.Now())), nil
	})
	RegisterFunction("UNIX_TIMESTAMP", func(s *Session, args []Value) (Value, error) {
		switch len(args) {
		case 0:
			return Int(s.Cluster.Now().Unix()), nil
		case 1:
			if args[0].IsNull() {
				return Null, nil
			}
			t, err := time.ParseInLocation("2006-01-02 15:04:05", args[0].String(), time.UTC)
			if err != nil {
				return Int(0), nil // MySQL: 0 for a value that is not a date
			}
			return Int(t.Unix()), nil
		}
		return Null, ErrWrongArgCount("unix_timestamp")
	})
	RegisterFunction("FROM_UNIXTIME", func(_ *Session, args []Value) (Value, error) {
		if len(args) != 1 {
			return Null, ErrWrongArgCount("from_unixtime")
		}
		if args[0].IsNull() {
			return Null, nil
		}
		n := args[0].ToFloat()
		if n < 0 {
			return Null, nil
		}
		return Str(timestampText(time.Unix(int64(n), 0))), nil
	})
}
