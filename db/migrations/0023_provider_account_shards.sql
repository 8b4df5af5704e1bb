-- The provider's world account in 16 shards (decision 057): every capture moved money out of the
-- one row `world:razorpay`, whose lock each posting held until its commit, so payments for
-- different bookings queued on it. A booking's postings now use one shard, chosen from its id
-- (`providerAccountOf`); `world:razorpay` itself is shard 0, shards 1 to 15 are
-- `world:razorpay:a` to `world:razorpay:o` (an account id's last segment is letters), and the
-- reports add the shards up.
INSERT INTO ledger_accounts (id, kind, allow_negative)
SELECT 'world:razorpay:' || chr(96 + n), 'world', true FROM generate_series(1, 15) AS n
ON CONFLICT (id) DO NOTHING;
