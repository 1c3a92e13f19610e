#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""capture-pcap.py FILE - write a pcap of four frames as hybridnet's
capture interface makes them (struct hybridnet_capture_hdr of
<linux/hybridnet.h>, big-endian, after an Ethernet header of EtherType
0x88b5), for test-install.sh to decode with tshark and hybridnet.lua:

  1. a file's message, node 2 -> 5, circuit, slot 1, 5 bytes "hello";
  2. an interface's message, node 0 -> 1, wormhole, slot 4: an Ethernet
     frame carrying an IPv4 ICMP echo request;
  3. the generator's, node 7 -> 3, wormhole, no payload;
  4. a file's message of 1000 bytes, node 1 -> 0, of which 16 kept.
"""
import struct
import sys

ETHERTYPE = 0x88b5
MAGIC = 0x686e


def mac(node):
    return bytes([0x02, 0x68, 0x6e, 0, node >> 8, node & 0xff])


def frame(seq, frm, mode, slot, src, dst, length, payload, t_inj, t_del):
    hdr = struct.pack('>HBBBBBBHHIIIIIQQ', MAGIC, 1, 48, frm, mode, mode,
                      0, slot, 0, seq, src, dst, length, len(payload),
                      t_inj, t_del)
    assert len(hdr) == 48
    return mac(dst) + mac(src) + struct.pack('>H', ETHERTYPE) + hdr + payload


def icmp_frame(src, dst):
    icmp = struct.pack('>BBHHH', 8, 0, 0, 0x1234, 1) + b'ping' * 4
    s = sum(struct.unpack('>%dH' % (len(icmp) // 2), icmp))
    s = (s >> 16) + (s & 0xffff)
    icmp = icmp[:2] + struct.pack('>H', ~s & 0xffff) + icmp[4:]
    ip = struct.pack('>BBHHHBBH4s4s', 0x45, 0, 20 + len(icmp), 1, 0x4000,
                     64, 1, 0, bytes([10, 0, 0, 1]), bytes([10, 0, 0, 2]))
    s = sum(struct.unpack('>10H', ip))
    s = (s >> 16) + (s & 0xffff)
    ip = ip[:10] + struct.pack('>H', ~s & 0xffff) + ip[12:]
    return mac(dst) + mac(src) + struct.pack('>H', 0x0800) + ip + icmp


def main():
    eth = icmp_frame(0, 1)
    frames = [
        frame(1, 0, 0, 1, 2, 5, 5, b'hello', 1000, 1191),
        frame(2, 1, 1, 4, 0, 1, len(eth), eth, 2000, 2500),
        frame(3, 2, 1, 4, 7, 3, 64, b'', 3000, 3400),
        frame(4, 0, 1, 4, 1, 0, 1000, bytes(range(16)), 4000, 9000),
    ]
    with open(sys.argv[1], 'wb') as f:
        f.write(struct.pack('<IHHiIII', 0xa1b2c3d4, 2, 4, 0, 0, 262144, 1))
        for i, fr in enumerate(frames):
            f.write(struct.pack('<IIII', 1700000000 + i, 0, len(fr),
                                len(fr)))
            f.write(fr)


if __name__ == '__main__':
    main()
