// Every npm script runs through this guard: the project is built and tested on Node 24 only.
const major = Number(process.versions.node.split('.')[0]);
if (major !== 24) {
  console.error(
    `\nPaydesk needs Node 24 but this is Node ${process.versions.node}.\n` +
      'Run it through npm (npm start, npm test, npm run <script>): the "node" devDependency provides Node 24.\n',
  );
  process.exit(1);
}
