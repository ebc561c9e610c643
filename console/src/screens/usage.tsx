export default function Screen() {
  return (
    <section>
      <h1>Usage</h1>
    </section>
  );
}
