// Stops the embedded PostgreSQL that test/global-setup.js started, if it started one.
module.exports = async () => {
  const stop = globalThis.__openqTestPostgresStop;
  if (!stop) return;
  globalThis.__openqTestPostgresStop = undefined;
  await stop();
};
