/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The lists that several interfaces of the module share, as rows to
 * expand: define the row macro of one list, include this file, undefine
 * the macro.  Only the lists whose macro is defined are expanded.  No
 * include guard, on purpose.
 *
 * HN_ERROR(KIND, file)  an error returned to user space: HN_E_<KIND> and
 *                       the file errors/<file> (the errno in the comment)
 * HN_GSTAT(file, STAT, value)  a statistic that sysfs stats/<file> and
 *                       netlink STATS_GET give as HYBRIDNET_STAT_<STAT>;
 *                       value is computed from g (struct hn_gstats) and hd
 * HN_NSTAT(file, STAT, value)  the same for one node, nodes/N/<file> and
 *                       the STATS_GET dump, from st (struct hn_nstats) and
 *                       ps (struct hn_port_stats)
 * HN_NFILE(file, value) a file of nodes/N/ that netlink does not give,
 *                       from st and ps likewise
 * HN_FINFO(file, value) a file of fabric/, the fabric's shape, from fi
 *                       (struct hn_fabric_info), as FABRIC_GET gives it
 * HN_LSTAT(file, value) a file of fabric/levelN/, from lv (struct
 *                       hn_level_stats): the sums over a level, which
 *                       netlink leaves to user space (LINK_GET, SWITCH_GET)
 */
#ifdef HN_ERROR
HN_ERROR(WRITE_UNBOUND, write_unbound)		/* ENOTCONN */
HN_ERROR(WRITE_SHORT, write_short)		/* EINVAL: < header */
HN_ERROR(WRITE_FLAGS, write_flags)		/* EINVAL: flags not a priority */
HN_ERROR(WRITE_PRIO, write_prio)		/* EPERM: priority 15 */
HN_ERROR(WRITE_LEN, write_len)			/* EINVAL: len != size - header */
HN_ERROR(WRITE_EMPTY, write_empty)		/* EINVAL: len == 0 */
HN_ERROR(WRITE_TOO_BIG, write_too_big)		/* EMSGSIZE */
HN_ERROR(WRITE_DST, write_bad_dst)		/* EINVAL: dst >= nodes */
HN_ERROR(WRITE_MCAST, write_bad_mcast)		/* EINVAL: multicast entries */
HN_ERROR(WRITE_UNREACH, write_unreachable)	/* EHOSTUNREACH */
HN_ERROR(WRITE_DEADLOCK, write_deadlock)	/* EDEADLK */
HN_ERROR(WRITE_FAULT, write_fault)		/* EFAULT */
HN_ERROR(WRITE_NOMEM, write_nomem)		/* ENOMEM */
HN_ERROR(WRITE_AGAIN, write_again)		/* EAGAIN: NIC full */
HN_ERROR(WRITE_INTR, write_intr)		/* ERESTARTSYS */
HN_ERROR(READ_UNBOUND, read_unbound)		/* ENOTCONN */
HN_ERROR(READ_TOO_SMALL, read_too_small)	/* EMSGSIZE */
HN_ERROR(READ_FAULT, read_fault)		/* EFAULT */
HN_ERROR(READ_AGAIN, read_again)		/* EAGAIN */
HN_ERROR(READ_INTR, read_intr)			/* ERESTARTSYS */
HN_ERROR(BIND_RANGE, bind_range)		/* EINVAL: node >= nodes */
HN_ERROR(BIND_BUSY, bind_busy)			/* EBUSY */
HN_ERROR(IOCTL_FAULT, ioctl_fault)		/* EFAULT */
HN_ERROR(IOCTL_UNKNOWN, ioctl_unknown)		/* ENOTTY */
HN_ERROR(GIVEN_UP, given_up)			/* ETIMEDOUT: exactly once */
#endif

#ifdef HN_GSTAT
HN_GSTAT(tx_msgs_circuit, TX_MSGS_CIRCUIT, g->tx_msgs[HN_MODE_CIRCUIT])
HN_GSTAT(tx_msgs_wormhole, TX_MSGS_WORMHOLE, g->tx_msgs[HN_MODE_WORMHOLE])
HN_GSTAT(tx_bytes_circuit, TX_BYTES_CIRCUIT, g->tx_bytes[HN_MODE_CIRCUIT])
HN_GSTAT(tx_bytes_wormhole, TX_BYTES_WORMHOLE,
	 g->tx_bytes[HN_MODE_WORMHOLE])
HN_GSTAT(rx_msgs_circuit, RX_MSGS_CIRCUIT, g->rx_msgs[HN_MODE_CIRCUIT])
HN_GSTAT(rx_msgs_wormhole, RX_MSGS_WORMHOLE, g->rx_msgs[HN_MODE_WORMHOLE])
HN_GSTAT(rx_bytes_circuit, RX_BYTES_CIRCUIT, g->rx_bytes[HN_MODE_CIRCUIT])
HN_GSTAT(rx_bytes_wormhole, RX_BYTES_WORMHOLE,
	 g->rx_bytes[HN_MODE_WORMHOLE])
HN_GSTAT(in_flight_msgs, IN_FLIGHT_MSGS, g->in_flight_msgs)
HN_GSTAT(in_flight_bytes, IN_FLIGHT_BYTES, g->in_flight_bytes)
HN_GSTAT(tx_full, TX_FULL, g->tx_full)
HN_GSTAT(retagged, RETAGGED, g->retagged)
HN_GSTAT(lat_min_ns, LAT_MIN_NS, hn_lat_min(g->lat_min))
HN_GSTAT(lat_mean_ns, LAT_MEAN_NS,
	 hn_lat_mean(g->lat_sum, g->rx_msgs[0] + g->rx_msgs[1]))
HN_GSTAT(lat_max_ns, LAT_MAX_NS, g->lat_max)
HN_GSTAT(lat_p50_ns, LAT_P50_NS,
	 hn_hist_percentile(g->hist, g->lat_min, g->lat_max, 500))
HN_GSTAT(lat_p99_ns, LAT_P99_NS,
	 hn_hist_percentile(g->hist, g->lat_min, g->lat_max, 990))
HN_GSTAT(lat_min_circuit_ns, LAT_MIN_CIRCUIT_NS,
	 hn_lat_min(g->lat_mode[HN_MODE_CIRCUIT].min))
HN_GSTAT(lat_mean_circuit_ns, LAT_MEAN_CIRCUIT_NS,
	 hn_lat_mean(g->lat_mode[HN_MODE_CIRCUIT].sum,
		     g->rx_msgs[HN_MODE_CIRCUIT]))
HN_GSTAT(lat_max_circuit_ns, LAT_MAX_CIRCUIT_NS,
	 g->lat_mode[HN_MODE_CIRCUIT].max)
HN_GSTAT(lat_p50_circuit_ns, LAT_P50_CIRCUIT_NS,
	 hn_mode_percentile(g, HN_MODE_CIRCUIT, 500))
HN_GSTAT(lat_p99_circuit_ns, LAT_P99_CIRCUIT_NS,
	 hn_mode_percentile(g, HN_MODE_CIRCUIT, 990))
HN_GSTAT(lat_min_wormhole_ns, LAT_MIN_WORMHOLE_NS,
	 hn_lat_min(g->lat_mode[HN_MODE_WORMHOLE].min))
HN_GSTAT(lat_mean_wormhole_ns, LAT_MEAN_WORMHOLE_NS,
	 hn_lat_mean(g->lat_mode[HN_MODE_WORMHOLE].sum,
		     g->rx_msgs[HN_MODE_WORMHOLE]))
HN_GSTAT(lat_max_wormhole_ns, LAT_MAX_WORMHOLE_NS,
	 g->lat_mode[HN_MODE_WORMHOLE].max)
HN_GSTAT(lat_p50_wormhole_ns, LAT_P50_WORMHOLE_NS,
	 hn_mode_percentile(g, HN_MODE_WORMHOLE, 500))
HN_GSTAT(lat_p99_wormhole_ns, LAT_P99_WORMHOLE_NS,
	 hn_mode_percentile(g, HN_MODE_WORMHOLE, 990))
HN_GSTAT(pairs, PAIRS, g->pairs)
HN_GSTAT(pairs_max, PAIRS_MAX, g->pairs_max)
HN_GSTAT(pair_overflow_msgs, PAIR_OVERFLOW_MSGS, g->pair_overflow_msgs)
HN_GSTAT(pair_overflow_bytes, PAIR_OVERFLOW_BYTES, g->pair_overflow_bytes)
HN_GSTAT(util_ppm, UTIL_PPM, g->util_ppm)
HN_GSTAT(cycles, CYCLES, g->cycles)
HN_GSTAT(idle_ns, IDLE_NS, g->idle_ns)
HN_GSTAT(grants, GRANTS, g->grants)
HN_GSTAT(exists, EXISTS, g->exists)
HN_GSTAT(refusals, REFUSALS, g->refusals)
HN_GSTAT(releases, RELEASES, g->releases)
HN_GSTAT(timeouts, TIMEOUTS, g->timeouts)
HN_GSTAT(preloads, PRELOADS, g->preloads)
HN_GSTAT(circuit_reroutes, CIRCUIT_REROUTES, g->circuit_reroutes)
HN_GSTAT(rx_dropped, RX_DROPPED, hd->rx_dropped)
HN_GSTAT(attempts, ATTEMPTS, g->attempts)
HN_GSTAT(drops, DROPS, g->drops)
HN_GSTAT(preemptions, PREEMPTIONS, g->preemptions)
HN_GSTAT(preemptions_late, PREEMPTIONS_LATE, g->preemptions_late)
HN_GSTAT(stub_flits, STUB_FLITS, g->stub_flits)
HN_GSTAT(unreach_waiting_msgs, UNREACH_WAITING_MSGS,
	 hn_unreach_waiting(hd->e))
HN_GSTAT(idem_msg_tx, IDEM_MSG_TX, hn_dev_idem(hd)->tx[HN_IDEM_MSG])
HN_GSTAT(idem_ack_tx, IDEM_ACK_TX, hn_dev_idem(hd)->tx[HN_IDEM_ACK])
HN_GSTAT(idem_ack2_tx, IDEM_ACK2_TX, hn_dev_idem(hd)->tx[HN_IDEM_ACK2])
HN_GSTAT(idem_msg_resends, IDEM_MSG_RESENDS, hn_dev_idem(hd)->resends[0])
HN_GSTAT(idem_ack_resends, IDEM_ACK_RESENDS, hn_dev_idem(hd)->resends[1])
HN_GSTAT(idem_dups_suppressed, IDEM_DUPS_SUPPRESSED, hn_dev_idem(hd)->dups_suppressed)
HN_GSTAT(idem_msg_lost, IDEM_MSG_LOST, hn_dev_idem(hd)->lost[HN_IDEM_MSG])
HN_GSTAT(idem_msg_arrived, IDEM_MSG_ARRIVED, hn_dev_idem(hd)->arrived[HN_IDEM_MSG])
HN_GSTAT(idem_ack_arrived, IDEM_ACK_ARRIVED, hn_dev_idem(hd)->arrived[HN_IDEM_ACK])
HN_GSTAT(idem_ack2_arrived, IDEM_ACK2_ARRIVED, hn_dev_idem(hd)->arrived[HN_IDEM_ACK2])
HN_GSTAT(idem_msg_attempts, IDEM_MSG_ATTEMPTS, hn_dev_idem(hd)->attempts[HN_IDEM_MSG])
HN_GSTAT(idem_ack_attempts, IDEM_ACK_ATTEMPTS, hn_dev_idem(hd)->attempts[HN_IDEM_ACK])
HN_GSTAT(idem_ack2_attempts, IDEM_ACK2_ATTEMPTS, hn_dev_idem(hd)->attempts[HN_IDEM_ACK2])
HN_GSTAT(idem_msg_switches, IDEM_MSG_SWITCHES, hn_dev_idem(hd)->msg_switches)
HN_GSTAT(idem_ack_lost, IDEM_ACK_LOST, hn_dev_idem(hd)->lost[HN_IDEM_ACK])
HN_GSTAT(idem_ack2_lost, IDEM_ACK2_LOST, hn_dev_idem(hd)->lost[HN_IDEM_ACK2])
HN_GSTAT(idem_crc_fail, IDEM_CRC_FAIL, hn_dev_idem(hd)->crc_fail)
HN_GSTAT(idem_retries_exhausted, IDEM_RETRIES_EXHAUSTED, hn_dev_idem(hd)->retries_exhausted)
HN_GSTAT(idem_acks_exhausted, IDEM_ACKS_EXHAUSTED, hn_dev_idem(hd)->acks_exhausted)
HN_GSTAT(idem_gaps_passed, IDEM_GAPS_PASSED, hn_dev_idem(hd)->gaps_passed)
HN_GSTAT(idem_send_state_entries, IDEM_SEND_STATE_ENTRIES, hn_dev_idem(hd)->send_state_entries)
HN_GSTAT(idem_recv_state_entries, IDEM_RECV_STATE_ENTRIES, hn_dev_idem(hd)->recv_state_entries)
HN_GSTAT(links_failed, LINKS_FAILED, g->links_failed)
HN_GSTAT(links_repaired, LINKS_REPAIRED, g->links_repaired)
HN_GSTAT(mcast_msgs, MCAST_MSGS, g->mcast_msgs)
HN_GSTAT(mcast_injections, MCAST_INJECTIONS, g->mcast_injections)
HN_GSTAT(mcast_copies, MCAST_COPIES, g->mcast_copies)
#endif

#ifdef HN_NSTAT
HN_NSTAT(tx_msgs_circuit, TX_MSGS_CIRCUIT, st->tx_msgs[HN_MODE_CIRCUIT])
HN_NSTAT(tx_msgs_wormhole, TX_MSGS_WORMHOLE, st->tx_msgs[HN_MODE_WORMHOLE])
HN_NSTAT(tx_bytes_circuit, TX_BYTES_CIRCUIT, st->tx_bytes[HN_MODE_CIRCUIT])
HN_NSTAT(tx_bytes_wormhole, TX_BYTES_WORMHOLE,
	 st->tx_bytes[HN_MODE_WORMHOLE])
HN_NSTAT(rx_msgs_circuit, RX_MSGS_CIRCUIT, st->rx_msgs[HN_MODE_CIRCUIT])
HN_NSTAT(rx_msgs_wormhole, RX_MSGS_WORMHOLE, st->rx_msgs[HN_MODE_WORMHOLE])
HN_NSTAT(rx_bytes_circuit, RX_BYTES_CIRCUIT, st->rx_bytes[HN_MODE_CIRCUIT])
HN_NSTAT(rx_bytes_wormhole, RX_BYTES_WORMHOLE,
	 st->rx_bytes[HN_MODE_WORMHOLE])
HN_NSTAT(tx_done, TX_DONE, st->tx_done)
HN_NSTAT(tx_full, TX_FULL, st->tx_full)
HN_NSTAT(lat_min_ns, LAT_MIN_NS, hn_lat_min(st->lat_min))
HN_NSTAT(lat_mean_ns, LAT_MEAN_NS,
	 hn_lat_mean(st->lat_sum, st->rx_msgs[0] + st->rx_msgs[1]))
HN_NSTAT(lat_max_ns, LAT_MAX_NS, st->lat_max)
HN_NSTAT(lat_min_circuit_ns, LAT_MIN_CIRCUIT_NS,
	 hn_lat_min(st->lat_mode[HN_MODE_CIRCUIT].min))
HN_NSTAT(lat_mean_circuit_ns, LAT_MEAN_CIRCUIT_NS,
	 hn_lat_mean(st->lat_mode[HN_MODE_CIRCUIT].sum,
		     st->rx_msgs[HN_MODE_CIRCUIT]))
HN_NSTAT(lat_max_circuit_ns, LAT_MAX_CIRCUIT_NS,
	 st->lat_mode[HN_MODE_CIRCUIT].max)
HN_NSTAT(lat_min_wormhole_ns, LAT_MIN_WORMHOLE_NS,
	 hn_lat_min(st->lat_mode[HN_MODE_WORMHOLE].min))
HN_NSTAT(lat_mean_wormhole_ns, LAT_MEAN_WORMHOLE_NS,
	 hn_lat_mean(st->lat_mode[HN_MODE_WORMHOLE].sum,
		     st->rx_msgs[HN_MODE_WORMHOLE]))
HN_NSTAT(lat_max_wormhole_ns, LAT_MAX_WORMHOLE_NS,
	 st->lat_mode[HN_MODE_WORMHOLE].max)
HN_NSTAT(rx_dropped, RX_DROPPED, ps->rx_dropped)
#endif

#ifdef HN_NFILE
HN_NFILE(lat_sum_ns, st->lat_sum)
HN_NFILE(rx_read, ps->rx_read)
HN_NFILE(rx_queued, ps->rx_queued)
HN_NFILE(nic_room, ps->nic_room)
HN_NFILE(bound, ps->bound)
#endif

#ifdef HN_FINFO
HN_FINFO(levels, fi->levels)
HN_FINFO(width, fi->width)
HN_FINFO(switches, fi->switches)
HN_FINFO(radix, fi->radix)
HN_FINFO(links, fi->links)
HN_FINFO(max_hops, fi->max_hops)
HN_FINFO(links_down, fi->links_down)
HN_FINFO(switches_down, fi->switches_down)
HN_FINFO(channels_down, fi->channels_down)
#endif

#ifdef HN_LSTAT
HN_LSTAT(switches, lv->switches)
HN_LSTAT(links, lv->links)
HN_LSTAT(bytes, lv->bytes)
HN_LSTAT(worms, lv->worms)
HN_LSTAT(blocked_ns, lv->blocked_ns)
HN_LSTAT(credit_stalls, lv->credit_stalls)
HN_LSTAT(buf_peak, lv->buf_peak)
HN_LSTAT(buf_byte_ns, lv->buf_byte_ns)
HN_LSTAT(up_busy_ns, lv->busy_ns[HN_UP])
HN_LSTAT(down_busy_ns, lv->busy_ns[HN_DOWN])
HN_LSTAT(circuit_bytes, lv->circuit_bytes)
#endif
