// The two tables of tr46 that name checks read (the package ships no types of its own).
declare module 'tr46/lib/regexes.js' {
  const tables: { combiningClassVirama: RegExp; validZWNJ: RegExp };
  export default tables;
}
