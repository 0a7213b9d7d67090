// SQL files are imported as text so the compiled binary carries its migrations.
declare module '*.sql' {
  const text: string;
  export default text;
}
