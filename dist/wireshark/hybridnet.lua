-- SPDX-License-Identifier: GPL-2.0
--
-- hybridnet.lua - a Wireshark dissector for the frames of hybridnet's
-- capture interface (hnmon0): the Ethernet frame's EtherType is 0x88b5,
-- then struct hybridnet_capture_hdr of <linux/hybridnet.h> (big-endian),
-- then the message's payload, as much as the interface kept (caplen).  A
-- payload an interface sent is an Ethernet frame, handed on to Wireshark's
-- Ethernet dissector; any other is shown as data.
--
-- Wireshark loads it from its plugin folders (make install puts it in
-- LIBDIR/wireshark/plugins), or when asked:
--   wireshark -X lua_script:hybridnet.lua fabric.pcap
--   tshark -X lua_script:hybridnet.lua -r fabric.pcap
-- Display filters: hybridnet.src == 3, hybridnet.mode == 0 (circuit),
-- hybridnet.from == 1 (an interface), hybridnet.latency > 10000, ...

local ETHERTYPE = 0x88b5
local MAGIC = 0x686e
local HDR_LEN = 48	-- of version 1; a later one may be longer

local hn = Proto("hybridnet", "hybridnet fabric message")

local from_names = { [0] = "file", [1] = "netdev", [2] = "generator" }
local mode_names = { [0] = "circuit", [1] = "wormhole" }

local f = hn.fields
f.magic = ProtoField.uint16("hybridnet.magic", "Magic", base.HEX)
f.version = ProtoField.uint8("hybridnet.version", "Version")
f.hdr_len = ProtoField.uint8("hybridnet.hdr_len", "Header length")
f.from = ProtoField.uint8("hybridnet.from", "Sent by", base.DEC, from_names)
f.mode = ProtoField.uint8("hybridnet.mode", "Mode (last byte)", base.DEC,
			  mode_names)
f.tag = ProtoField.uint8("hybridnet.tag", "Tag (at injection)", base.DEC,
			 mode_names)
f.flags = ProtoField.uint8("hybridnet.flags", "Flags", base.HEX)
f.slot = ProtoField.uint16("hybridnet.slot", "Slot")
f.fabric = ProtoField.uint16("hybridnet.fabric", "Fabric")
f.seq = ProtoField.uint32("hybridnet.seq", "Sequence")
f.src = ProtoField.uint32("hybridnet.src", "Source node")
f.dst = ProtoField.uint32("hybridnet.dst", "Destination node")
f.len = ProtoField.uint32("hybridnet.len", "Message length")
f.caplen = ProtoField.uint32("hybridnet.caplen", "Captured length")
f.t_inject = ProtoField.uint64("hybridnet.t_inject", "Injected at (virtual ns)")
f.t_deliver = ProtoField.uint64("hybridnet.t_deliver",
				"Delivered at (virtual ns)")
f.latency = ProtoField.uint64("hybridnet.latency", "Latency (virtual ns)")

local e_trunc = ProtoExpert.new("hybridnet.truncated",
				"Payload cut at the capture interface's snaplen",
				expert.group.UNDECODED, expert.severity.NOTE)
local e_version = ProtoExpert.new("hybridnet.version_unknown",
				  "Unknown version: the fields past the first 48 bytes are not decoded",
				  expert.group.UNDECODED, expert.severity.WARN)
hn.experts = { e_trunc, e_version }

local eth = Dissector.get("eth_withoutfcs")
local data = Dissector.get("data")

function hn.dissector(tvb, pinfo, tree)
	if tvb:len() < HDR_LEN or tvb(0, 2):uint() ~= MAGIC then
		return 0	-- another use of the experimental EtherType
	end
	local hdr_len = tvb(3, 1):uint()
	if hdr_len < HDR_LEN or hdr_len > tvb:len() then
		return 0
	end
	local from = tvb(4, 1):uint()
	local mode = tvb(5, 1):uint()
	local src = tvb(16, 4):uint()
	local dst = tvb(20, 4):uint()
	local len = tvb(24, 4):uint()
	local caplen = tvb(28, 4):uint()
	local t_inj = tvb(32, 8):uint64()
	local t_del = tvb(40, 8):uint64()

	pinfo.cols.protocol = "hybridnet"
	local t = tree:add(hn, tvb(0, hdr_len))
	t:add(f.magic, tvb(0, 2))
	local v = t:add(f.version, tvb(2, 1))
	if tvb(2, 1):uint() ~= 1 then
		v:add_proto_expert_info(e_version)
	end
	t:add(f.hdr_len, tvb(3, 1))
	t:add(f.from, tvb(4, 1))
	t:add(f.mode, tvb(5, 1))
	t:add(f.tag, tvb(6, 1))
	t:add(f.flags, tvb(7, 1))
	t:add(f.slot, tvb(8, 2))
	t:add(f.fabric, tvb(10, 2))
	t:add(f.seq, tvb(12, 4))
	t:add(f.src, tvb(16, 4))
	t:add(f.dst, tvb(20, 4))
	t:add(f.len, tvb(24, 4))
	local c = t:add(f.caplen, tvb(28, 4))
	if from ~= 2 and caplen < len then
		c:add_proto_expert_info(e_trunc)
	end
	t:add(f.t_inject, tvb(32, 8))
	t:add(f.t_deliver, tvb(40, 8))
	t:add(f.latency, t_del - t_inj):set_generated()
	t:append_text(string.format(", %u -> %u, %s, %s", src, dst,
				    from_names[from] or "?",
				    mode_names[mode] or "?"))

	local summary = string.format("hybridnet %u -> %u %s %s len %u",
				      src, dst, from_names[from] or "?",
				      mode_names[mode] or "?", len)
	local rest = tvb:len() - hdr_len
	if rest > 0 and from == 1 and rest >= 14 then
		eth:call(tvb(hdr_len):tvb(), pinfo, tree)
		pinfo.cols.info:prepend(summary .. ": ")
	else
		pinfo.cols.info = summary
		if rest > 0 then
			data:call(tvb(hdr_len):tvb(), pinfo, tree)
		end
	end
	return tvb:len()
end

DissectorTable.get("ethertype"):add(ETHERTYPE, hn)
