"""The xtraboard decision protocol (XDP): bots and engines behind a line protocol
(docs/engine-protocol.md). `server` is the board's own engine (`xtraboard engine`)."""
