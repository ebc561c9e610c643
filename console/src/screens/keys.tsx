export default function Screen() {
  return (
    <section>
      <h1>Keys</h1>
    </section>
  );
}
