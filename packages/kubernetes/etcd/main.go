// A single-member etcd for Slipway's Kubernetes test peer: etcd's own server started through its embed package,
// listening on 127.0.0.1 only. The client port may be 0; the address it got is printed as
// "etcd: serving <url>" once the member is ready. SIGTERM or SIGINT closes it.
package main

import (
	"flag"
	"fmt"
	"net/url"
	"os"
	"os/signal"
	"syscall"
	"time"

	"go.etcd.io/etcd/server/v3/embed"
)

func localURL(port int) url.URL {
	return url.URL{Scheme: "http", Host: fmt.Sprintf("127.0.0.1:%d", port)}
}

func main() {
	dataDir := flag.String("data-dir", "", "folder of the member's data (required)")
	clientPort := flag.Int("client-port", 0, "client port on 127.0.0.1 (0: any free one)")
	peerPort := flag.Int("peer-port", 0, "peer port on 127.0.0.1 (0: any free one)")
	logLevel := flag.String("log-level", "warn", "debug, info, warn or error")
	flag.Parse()
	if *dataDir == "" {
		fmt.Fprintln(os.Stderr, "etcd: --data-dir is required")
		os.Exit(2)
	}

	cfg := embed.NewConfig()
	cfg.Name = "slipway"
	cfg.Dir = *dataDir
	cfg.LogLevel = *logLevel
	client := localURL(*clientPort)
	peer := localURL(*peerPort)
	cfg.ListenClientUrls = []url.URL{client}
	cfg.AdvertiseClientUrls = []url.URL{client}
	cfg.ListenPeerUrls = []url.URL{peer}
	cfg.AdvertisePeerUrls = []url.URL{peer}
	cfg.InitialCluster = cfg.Name + "=" + peer.String()

	server, err := embed.StartEtcd(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "etcd: cannot start:", err)
		os.Exit(1)
	}
	select {
	case <-server.Server.ReadyNotify():
	case <-time.After(60 * time.Second):
		server.Close()
		fmt.Fprintln(os.Stderr, "etcd: not ready within 60 s")
		os.Exit(1)
	}
	fmt.Printf("etcd: serving http://%s\n", server.Clients[0].Addr().String())

	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGINT)
	select {
	case <-signals:
		server.Close()
	case err := <-server.Err():
		fmt.Fprintln(os.Stderr, "etcd: stopped:", err)
		os.Exit(1)
	}
}
